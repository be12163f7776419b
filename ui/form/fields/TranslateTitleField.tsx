import type { ErrorSchema, FieldProps } from '@rjsf/utils';
import { getUiOptions, toFieldPathId } from '@rjsf/utils';
import { useRef, useState, type KeyboardEvent } from 'react';
import { useLanguage, useT } from '../../i18n';
import { languageName, STOREFRONT_LANGUAGES, textDirection } from './storefront-languages';
import { GroupLegend } from '../templates/GroupLegend';

function isTextMap(value: unknown): value is Record<string, string> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A storefront text in every storefront language (`"ui:field": "translateTitle"` on an object of
 * language code → text): one tab per language, marked when it has text, and one input for the tab
 * on show. Emptied languages are left out of the data. `ui:options.languages` narrows the tabs.
 */
export function TranslateTitleField({ schema, uiSchema, formData, errorSchema, fieldPathId, registry, onChange, disabled, readonly, name, required }: FieldProps) {
  const t = useT();
  const locale = useLanguage();
  const texts = isTextMap(formData) ? formData : {};
  const uiOptions = getUiOptions(uiSchema);
  const languages = Array.isArray(uiOptions.languages) ? (uiOptions.languages as string[]) : [...STOREFRONT_LANGUAGES];
  const [active, setActive] = useState(languages.includes('en') ? 'en' : (languages[0] ?? 'en'));
  const tabs = useRef(new Map<string, HTMLButtonElement>());
  const label = (uiOptions.title as string | undefined) ?? schema.title ?? name;
  const description = (uiOptions.description as string | undefined) ?? schema.description;
  const base = fieldPathId.$id;
  const tabId = (code: string) => `${base}__tab-${code}`;
  const panelId = `${base}__panel`;
  // The input's id is the one RJSF would give the property, so a server error on /title/de focuses it.
  const inputId = toFieldPathId(active, registry.globalFormOptions, fieldPathId).$id;
  const errors = ((errorSchema as Record<string, ErrorSchema> | undefined)?.[active]?.__errors ?? []) as string[];
  const errorId = `${inputId}__error`;

  function select(code: string) {
    setActive(code);
    tabs.current.get(code)?.focus();
  }

  function onTabKeyDown(event: KeyboardEvent, index: number) {
    const last = languages.length - 1;
    const next = event.key === 'ArrowRight' ? (index === last ? 0 : index + 1) : event.key === 'ArrowLeft' ? (index === 0 ? last : index - 1) : event.key === 'Home' ? 0 : event.key === 'End' ? last : null;
    const code = next === null ? undefined : languages[next];
    if (code === undefined) return;
    event.preventDefault();
    select(code);
  }

  function write(text: string) {
    const next = { ...texts };
    if (text === '') delete next[active];
    else next[active] = text;
    onChange(next, fieldPathId.path);
  }

  return (
    <fieldset className="form-array translate-field" id={base}>
      <GroupLegend fieldPathId={fieldPathId} label={label} required={required} description={description} />
      <div className="tabs translate-field__tabs" role="tablist" aria-label={t('form.translate.languages')}>
        {languages.map((code, index) => {
          const hasText = Boolean(texts[code]);
          return (
            <button
              key={code}
              ref={(element) => {
                if (element) tabs.current.set(code, element);
                else tabs.current.delete(code);
              }}
              type="button"
              role="tab"
              id={tabId(code)}
              className={hasText ? 'tabs__tab translate-field__tab translate-field__tab--filled' : 'tabs__tab translate-field__tab'}
              aria-selected={code === active}
              aria-controls={panelId}
              tabIndex={code === active ? 0 : -1}
              title={languageName(code, locale)}
              // Starts with the code on show, then says what the short tab cannot.
              aria-label={`${code} (${languageName(code, locale)})${hasText ? `, ${t('form.translate.hasText')}` : ''}`}
              onClick={() => select(code)}
              onKeyDown={(event) => onTabKeyDown(event, index)}
            >
              {code}
              {hasText && <span className="translate-field__dot" aria-hidden="true" />}
            </button>
          );
        })}
      </div>
      <div id={panelId} role="tabpanel" aria-labelledby={tabId(active)} className="form-field">
        <label className="form-field__label" htmlFor={inputId}>
          {languageName(active, locale)}
        </label>
        <div className={errors.length > 0 ? 'input input--invalid' : 'input'}>
          <input
            id={inputId}
            className="input__field"
            lang={active}
            dir={textDirection(active)}
            value={texts[active] ?? ''}
            disabled={disabled}
            readOnly={readonly}
            aria-invalid={errors.length > 0 || undefined}
            aria-describedby={errors.length > 0 ? errorId : undefined}
            onChange={(event) => write(event.target.value)}
          />
        </div>
        {errors.length > 0 && (
          <div id={errorId} className="form-field__error">
            {errors.map((message) => (
              <p key={message}>{message}</p>
            ))}
          </div>
        )}
      </div>
    </fieldset>
  );
}
