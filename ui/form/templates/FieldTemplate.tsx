import type { FieldTemplateProps } from '@rjsf/utils';

/** The id of a field's label, for widgets that name a group with it (radios). */
export const labelId = (fieldId: string) => `${fieldId}__label`;

/**
 * One field: label, control, help, then errors, in the shop admin's order. Booleans render their own
 * label beside the toggle, so the template leaves it out for them. Objects and arrays title
 * themselves, except an array drawn by one widget (a product picker), which is labelled like any field.
 */
export function FieldTemplate(props: FieldTemplateProps) {
  const { id, label, children, errors, help, description, hidden, required, displayLabel, rawErrors, schema, classNames } = props;
  if (hidden) return <div hidden>{children}</div>;
  const isContainer = schema.type === 'object' || (schema.type === 'array' && !displayLabel);
  if (isContainer) {
    return (
      <div className={classNames}>
        {children}
        {errors}
      </div>
    );
  }
  const invalid = (rawErrors?.length ?? 0) > 0;
  return (
    <div className={['form-field', invalid ? 'form-field--invalid' : '', classNames ?? ''].join(' ').trim()}>
      {displayLabel && label && (
        <div className="form-field__label-row">
          <label className="form-field__label" id={labelId(id)} htmlFor={id}>
            {label}
          </label>
          {/* The input carries `required`; the star is for sighted users only. */}
          {required && <span className="form-field__required" aria-hidden="true">*</span>}
        </div>
      )}
      {children}
      {displayLabel && description}
      {help}
      {errors}
    </div>
  );
}
