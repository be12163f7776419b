import type { WidgetProps } from '@rjsf/utils';
import { ariaDescribedByIds } from '@rjsf/utils';
import { useState } from 'react';
import { useT } from '../../i18n';

/** The form a stored color takes (the schemas' `^#[0-9a-fA-F]{6}$`). */
const HEX = /^#[0-9a-f]{6}$/i;

/**
 * A color as `#rrggbb`: the browser's color picker and a hex text box, kept in sync
 * (`"ui:widget": "color"`). Text that is not a full hex color never reaches the form data; it is
 * flagged when the merchant leaves the box.
 */
export function ColorWidget({ id, htmlName, value, label, disabled, readonly, autofocus, rawErrors, options, onChange, onBlur, onFocus }: WidgetProps) {
  const t = useT();
  const stored = typeof value === 'string' ? value : '';
  const [draft, setDraft] = useState(stored);
  const [seen, setSeen] = useState(stored);
  const [invalid, setInvalid] = useState(false);
  // A new value from outside (the picker, Discard) replaces whatever is being typed.
  if (stored !== seen) {
    setSeen(stored);
    setDraft(stored);
    setInvalid(false);
  }

  const off = disabled || readonly;
  const errorId = `${id}__hex-error`;
  const hasErrors = invalid || (rawErrors?.length ?? 0) > 0;

  function onText(text: string) {
    setDraft(text);
    const candidate = text.startsWith('#') ? text : `#${text}`;
    if (HEX.test(candidate)) {
      setInvalid(false);
      onChange(candidate);
    } else if (text === '') {
      setInvalid(false);
      onChange(options.emptyValue);
    }
  }

  return (
    <div className="color-field">
      <input
        id={id}
        name={htmlName || id}
        type="color"
        className="color-field__swatch"
        // The picker cannot show "no color"; it shows black until one is chosen.
        value={HEX.test(stored) ? stored.toLowerCase() : '#000000'}
        disabled={off}
        autoFocus={autofocus}
        aria-describedby={ariaDescribedByIds(id)}
        onChange={(event) => onChange(event.target.value)}
        onBlur={(event) => onBlur(id, event.target.value)}
        onFocus={(event) => onFocus(id, event.target.value)}
      />
      <div className={hasErrors ? 'input input--invalid color-field__hex' : 'input color-field__hex'}>
        <input
          className="input__field"
          value={draft}
          maxLength={7}
          spellCheck={false}
          autoComplete="off"
          placeholder="#rrggbb"
          aria-label={t('form.color.hex', { label: label || '' }).trim()}
          aria-invalid={hasErrors || undefined}
          aria-describedby={invalid ? errorId : ariaDescribedByIds(id)}
          disabled={disabled}
          readOnly={readonly}
          onChange={(event) => onText(event.target.value)}
          onBlur={() => setInvalid(draft !== '' && !HEX.test(draft.startsWith('#') ? draft : `#${draft}`))}
        />
      </div>
      {invalid && (
        <div id={errorId} className="form-field__error color-field__error">
          <p>
            <span className="form-field__error-icon" aria-hidden="true">!</span>
            {t('form.color.invalid')}
          </p>
        </div>
      )}
    </div>
  );
}
