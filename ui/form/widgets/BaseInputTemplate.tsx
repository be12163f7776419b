import type { BaseInputTemplateProps } from '@rjsf/utils';
import { ariaDescribedByIds, getInputProps } from '@rjsf/utils';
import { startTransition, useState, type ChangeEvent, type KeyboardEvent, type ReactNode } from 'react';

/** Extra props our own widgets pass to the input: text or symbols drawn inside the box. */
export interface AffixProps {
  prefix?: ReactNode;
  suffix?: ReactNode;
  /** Id of text outside the box that also describes it (e.g. the store timezone beside a date). */
  describedBy?: string;
}

/**
 * The text box every input widget shares (text, number, date, points, money). `ui:options.prefix`
 * and `ui:options.suffix` put fixed text inside the box, e.g. a currency symbol.
 *
 * Typing paints at once (issue 12 "Speed"): the box shows what was typed from its own state and
 * hands the value to RJSF in a transition, so RJSF's re-derivation of the whole form runs after the
 * keystroke's paint. Leaving the box (blur, which a click on Save causes first) or pressing Enter
 * hands the value over at once, so a save never misses the last characters. A form that is handed
 * new data remounts (SchemaForm), which drops what was typed here.
 */
export function BaseInputTemplate(props: BaseInputTemplateProps & AffixProps) {
  const { id, htmlName, value, readonly, disabled, autofocus, onBlur, onFocus, onChange, onChangeOverride, options, schema, type, rawErrors, placeholder, required } = props;
  const inputProps = getInputProps(schema, type, options);
  const isNumber = inputProps.type === 'number';
  if (isNumber && inputProps.step === undefined) {
    inputProps.step = (options.step as number | undefined) ?? (schema.type === 'integer' ? 1 : 'any');
  }
  const shown = isNumber ? (value || value === 0 ? value : '') : (value ?? '');
  const prefix = props.prefix ?? (options.prefix as ReactNode | undefined);
  const suffix = props.suffix ?? (options.suffix as ReactNode | undefined);
  const invalid = (rawErrors?.length ?? 0) > 0;
  /** What was typed, while the box has focus; RJSF's value otherwise. */
  const [typed, setTyped] = useState<string | null>(null);
  const toValue = (text: string) => (text === '' ? options.emptyValue : text);
  const handleChange = ({ target }: ChangeEvent<HTMLInputElement>) => {
    const text = target.value;
    setTyped(text);
    startTransition(() => onChange(toValue(text)));
  };
  const commitTyped = (text: string) => {
    if (typed === null) return;
    setTyped(null);
    onChange(toValue(text));
  };

  return (
    <div className={['input', invalid ? 'input--invalid' : '', disabled || readonly ? 'input--disabled' : ''].join(' ').trim()}>
      {prefix !== undefined && <span className="input__prefix" aria-hidden="true">{prefix}</span>}
      <input
        id={id}
        name={htmlName || id}
        className="input__field"
        {...inputProps}
        value={typed ?? (shown as string | number)}
        placeholder={placeholder}
        required={required}
        readOnly={readonly}
        disabled={disabled}
        autoFocus={autofocus}
        aria-invalid={invalid || undefined}
        aria-describedby={[ariaDescribedByIds(id), props.describedBy].filter(Boolean).join(' ')}
        onChange={onChangeOverride || handleChange}
        onKeyDown={(event: KeyboardEvent<HTMLInputElement>) => {
          if (event.key === 'Enter' && !onChangeOverride) commitTyped(event.currentTarget.value);
        }}
        onBlur={(event) => {
          if (!onChangeOverride) commitTyped(event.target.value);
          onBlur(id, event.target.value);
        }}
        onFocus={(event) => onFocus(id, event.target.value)}
      />
      {suffix !== undefined && <span className="input__suffix">{suffix}</span>}
    </div>
  );
}
