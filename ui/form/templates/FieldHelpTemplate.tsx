import type { FieldHelpProps } from '@rjsf/utils';
import { helpId } from '@rjsf/utils';

/** Help text under a field (`ui:help`). */
export function FieldHelpTemplate({ help, fieldPathId }: FieldHelpProps) {
  if (!help) return null;
  return (
    <div id={helpId(fieldPathId)} className="form-field__help">
      {help}
    </div>
  );
}
