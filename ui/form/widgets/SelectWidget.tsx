import type { WidgetProps } from '@rjsf/utils';
import {
  ariaDescribedByIds,
  enumOptionSelectedValue,
  enumOptionValueDecoder,
  enumOptionValueEncoder,
  getOptionValueFormat,
} from '@rjsf/utils';
import { Icon } from '../../components/Icon';

/** A native select over the schema's `enum`/`oneOf` options (single choice). */
export function SelectWidget({ id, htmlName, value, options, schema, disabled, readonly, autofocus, placeholder, required, rawErrors, onChange, onBlur, onFocus }: WidgetProps) {
  const { enumOptions = [], enumDisabled, emptyValue } = options;
  const format = getOptionValueFormat(options);
  const selected = enumOptionSelectedValue(value, enumOptions, false, format, '');
  const decode = (raw: string) => enumOptionValueDecoder(raw, enumOptions, format, emptyValue);
  const invalid = (rawErrors?.length ?? 0) > 0;
  return (
    <div className={invalid ? 'select input--invalid' : 'select'}>
      <select
        id={id}
        name={htmlName || id}
        className="select__field"
        value={selected as string}
        required={required}
        disabled={disabled || readonly}
        autoFocus={autofocus}
        aria-invalid={invalid || undefined}
        aria-describedby={ariaDescribedByIds(id)}
        onChange={(event) => onChange(decode(event.target.value))}
        onBlur={(event) => onBlur(id, decode(event.target.value))}
        onFocus={(event) => onFocus(id, decode(event.target.value))}
      >
        {schema.default === undefined && <option value="">{placeholder}</option>}
        {enumOptions.map((option, index) => (
          <option key={String(option.value)} value={enumOptionValueEncoder(option.value, index, format)} disabled={enumDisabled?.includes(option.value)}>
            {option.label}
          </option>
        ))}
      </select>
      <Icon name="chevron-down" className="select__chevron" />
    </div>
  );
}
