import { useAtomValue } from 'jotai';
import { useId } from 'react';
import { APP_LANGUAGES, isAppLanguage, useT } from '../i18n';
import { languageAtom, useChooseLanguage } from '../state/language';
import { Icon } from './Icon';

/**
 * The in-app language picker of page headers (spec 000 §4 Language switch): a native select, so
 * it works with the keyboard and screen readers as is; each language is listed by its own name and
 * marked with its `lang`. Choosing applies and saves at once (`useChooseLanguage`).
 */
export function LanguageSwitcher() {
  const t = useT();
  const language = useAtomValue(languageAtom);
  const choose = useChooseLanguage();
  const id = useId();
  const hintId = `${id}-hint`;
  return (
    <div className="language-switcher">
      <label className="visually-hidden" htmlFor={id}>
        {t('language.label')}
      </label>
      <span id={hintId} className="visually-hidden">
        {t('language.hint')}
      </span>
      <div className="select language-switcher__select">
        <span className="language-switcher__icon" aria-hidden="true">
          <svg viewBox="0 0 20 20" width="16" height="16" fill="none" stroke="currentColor" strokeWidth="1.5">
            <circle cx="10" cy="10" r="7.25" />
            <path d="M2.75 10h14.5M10 2.75c2 2.1 3 4.5 3 7.25s-1 5.15-3 7.25M10 2.75c-2 2.1-3 4.5-3 7.25s1 5.15 3 7.25" />
          </svg>
        </span>
        <select
          id={id}
          className="select__field language-switcher__field"
          value={language}
          aria-describedby={hintId}
          onChange={(event) => {
            const next = event.target.value;
            if (isAppLanguage(next)) void choose(next);
          }}
        >
          {APP_LANGUAGES.map((option) => (
            <option key={option.code} value={option.code} lang={option.code}>
              {option.name}
            </option>
          ))}
        </select>
        <Icon name="chevron-down" className="select__chevron" />
      </div>
    </div>
  );
}
