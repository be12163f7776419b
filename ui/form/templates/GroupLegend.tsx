import type { FieldPathId } from '@rjsf/utils';
import { titleId } from '@rjsf/utils';

export interface GroupLegendProps {
  fieldPathId: FieldPathId;
  label?: string;
  required?: boolean;
  description?: string;
}

/**
 * The heading of a group of fields (a list, the per-language title): the legend RJSF's `titleId`
 * points at, a required mark, and the help text under it. Render it first inside the `<fieldset>`.
 */
export function GroupLegend({ fieldPathId, label, required, description }: GroupLegendProps) {
  return (
    <>
      {label && (
        <legend id={titleId(fieldPathId)} className="form-object__title">
          {label}
          {required && <span className="form-field__required" aria-hidden="true"> *</span>}
        </legend>
      )}
      {description && <div className="form-field__help">{description}</div>}
    </>
  );
}
