import type { WidgetProps } from '@rjsf/utils';
import { ariaDescribedByIds } from '@rjsf/utils';

/** Multi-line text; `ui:options.rows` sets its height. */
export function TextareaWidget({ id, htmlName, value, options, disabled, readonly, autofocus, placeholder, required, rawErrors, onChange, onBlur, onFocus }: WidgetProps) {
  const invalid = (rawErrors?.length ?? 0) > 0;
  return (
    <div className={invalid ? 'input input--invalid' : 'input'}>
      <textarea
        id={id}
        name={htmlName || id}
        className="input__field input__field--multiline"
        value={(value as string | undefined) ?? ''}
        rows={typeof options.rows === 'number' ? options.rows : 4}
        placeholder={placeholder}
        required={required}
        disabled={disabled}
        readOnly={readonly}
        autoFocus={autofocus}
        aria-invalid={invalid || undefined}
        aria-describedby={ariaDescribedByIds(id)}
        onChange={(event) => onChange(event.target.value === '' ? options.emptyValue : event.target.value)}
        onBlur={(event) => onBlur(id, event.target.value)}
        onFocus={(event) => onFocus(id, event.target.value)}
      />
    </div>
  );
}
