import type { DescriptionFieldProps } from '@rjsf/utils';

/** A field's schema description, shown as help text. */
export function DescriptionFieldTemplate({ id, description }: DescriptionFieldProps) {
  if (!description) return null;
  return (
    <div id={id} className="form-field__help">
      {description}
    </div>
  );
}
