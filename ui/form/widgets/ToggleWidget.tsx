import type { WidgetProps } from '@rjsf/utils';
import { ariaDescribedByIds, descriptionId } from '@rjsf/utils';
import { Toggle } from '../../components/Toggle';

/** Booleans as an on/off switch with the field's label beside it (our `checkbox` widget). */
export function ToggleWidget({ id, htmlName, value, label, hideLabel, schema, options, disabled, readonly, onChange, onBlur, onFocus }: WidgetProps) {
  const description = options.description ?? schema.description;
  return (
    <div className="toggle-field">
      <Toggle
        id={id}
        name={htmlName || id}
        checked={value === true}
        disabled={disabled || readonly}
        describedBy={ariaDescribedByIds(id)}
        onChange={onChange}
        onBlur={(event) => onBlur(id, event.target.checked)}
        onFocus={(event) => onFocus(id, event.target.checked)}
      />
      <div className="toggle-field__text">
        {!hideLabel && label && (
          <label className="toggle-field__label" htmlFor={id}>
            {label}
          </label>
        )}
        {description && (
          <div id={descriptionId(id)} className="form-field__help">
            {description}
          </div>
        )}
      </div>
    </div>
  );
}
