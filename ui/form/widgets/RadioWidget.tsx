import type { WidgetProps } from '@rjsf/utils';
import { ariaDescribedByIds, enumOptionValueDecoder, enumOptionValueEncoder, getOptionValueFormat, optionId } from '@rjsf/utils';
import { labelId } from '../templates/FieldTemplate';

/** One choice among a few, all visible (`"ui:widget": "radio"`); the field label names the group. */
export function RadioWidget({ id, htmlName, value, options, disabled, readonly, autofocus, onChange, onBlur, onFocus }: WidgetProps) {
  const { enumOptions = [], enumDisabled, emptyValue } = options;
  const format = getOptionValueFormat(options);
  const decode = (raw: string) => enumOptionValueDecoder(raw, enumOptions, format, emptyValue);
  return (
    <div id={id} className="radio-group" role="radiogroup" aria-labelledby={labelId(id)} aria-describedby={ariaDescribedByIds(id)}>
      {enumOptions.map((option, index) => {
        const encoded = enumOptionValueEncoder(option.value, index, format);
        return (
          <label key={encoded} className="radio-group__option">
            <input
              type="radio"
              id={optionId(id, index)}
              name={htmlName || id}
              value={encoded}
              checked={option.value === value}
              disabled={disabled || readonly || enumDisabled?.includes(option.value)}
              autoFocus={autofocus && index === 0}
              onChange={(event) => onChange(decode(event.target.value))}
              onBlur={(event) => onBlur(id, decode(event.target.value))}
              onFocus={(event) => onFocus(id, decode(event.target.value))}
            />
            <span>{option.label}</span>
          </label>
        );
      })}
    </div>
  );
}
