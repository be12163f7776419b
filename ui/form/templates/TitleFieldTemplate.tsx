import type { TitleFieldProps } from '@rjsf/utils';

/** A group title. */
export function TitleFieldTemplate({ id, title, required }: TitleFieldProps) {
  return (
    <legend id={id} className="form-object__title">
      {title}
      {required && <span className="form-field__required" aria-hidden="true"> *</span>}
    </legend>
  );
}
