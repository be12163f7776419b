import { useSetAtom } from 'jotai';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { ApiError } from '../../api/client';
import { useResource } from '../../api/use-resource';
import { Banner } from '../../components/Banner';
import { ButtonLink } from '../../components/Button';
import { Card } from '../../components/Card';
import { ContextualSaveBar } from '../../components/ContextualSaveBar';
import { EmptyState } from '../../components/EmptyState';
import { LeavePrompt } from '../../components/LeavePrompt';
import { Page } from '../../components/Page';
import { Select } from '../../components/Select';
import { SkeletonPage } from '../../components/Skeleton';
import { labelsFor, useLanguage, useT } from '../../i18n';
import { useToast } from '../../state/toasts';
import { unsavedChangesAtom } from '../../state/unsaved';
import { languageName, translationApi, type DetectMethod, type Translation, type TranslationAnswer } from './api';
import './translations.css';

const DETECT_METHODS: DetectMethod[] = ['browser_language', 'customer_ip'];

/**
 * `/translations` (spec 001 §2 Translation editor; issue 13): the shop's storefront languages —
 * primary language, how the shopper's language is detected, additional languages — with a save bar
 * (off with `?trial`), and the eight text variants, each opening the editor.
 */
export function TranslationsPage() {
  const t = useT();
  const labels = labelsFor(useLanguage());
  const resource = useResource(`translation:${labels}`, () => translationApi.get(undefined, labels), { keepData: true });
  if (resource.loading && !resource.data) return <SkeletonPage label={t('common.loading')} />;
  if (resource.error || !resource.data) {
    return (
      <Page title={t('translations.title')} backTo="/settings?type=translations" backLabel={t('nav.settings')}>
        <Banner tone="critical" title={t('translations.loadError')} action={{ label: t('translations.retry'), onAction: resource.reload }}>
          {resource.error instanceof Error ? resource.error.message : null}
        </Banner>
      </Page>
    );
  }
  return <LanguagesAndVariants answer={resource.data} />;
}

function LanguagesAndVariants({ answer }: { answer: TranslationAnswer }) {
  const t = useT();
  const ui = useLanguage();
  const toast = useToast();
  const [params] = useSearchParams();
  const trial = params.has('trial');
  const [saved, setSaved] = useState({ data: answer.data, version: answer.version });
  const [draft, setDraft] = useState<Translation>(answer.data);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const same = (a: Translation, b: Translation) => a.primaryLanguage === b.primaryLanguage && a.detectMethod === b.detectMethod && [...a.additionalLanguages].sort().join() === [...b.additionalLanguages].sort().join();
  const dirty = !same(draft, saved.data);
  const dirtyRef = useRef(dirty);
  dirtyRef.current = dirty;
  const isDirty = useCallback(() => dirtyRef.current, []);
  const setUnsaved = useSetAtom(unsavedChangesAtom);
  useEffect(() => setUnsaved(dirty), [dirty, setUnsaved]);
  useEffect(() => () => setUnsaved(false), [setUnsaved]);

  const name = (code: string) => languageName(code, ui);
  const byName = [...answer.languages].sort((a, b) => name(a).localeCompare(name(b), ui));

  async function save() {
    if (trial || saving) return;
    setSaving(true);
    setError(null);
    try {
      const result = await translationApi.save({ ...draft, content: saved.data.content }, saved.version);
      setSaved({ data: result.data, version: result.version });
      setDraft(result.data);
      toast(t('translations.translationsSaved'));
    } catch (cause) {
      setError(cause instanceof ApiError ? (cause.details[0]?.message ?? cause.message) : String(cause));
      toast(t('translations.failedToSaveTranslations'), 'error');
    } finally {
      setSaving(false);
    }
  }

  const editorLink = (type: string) => `/settings/translations/editor?type=${encodeURIComponent(type)}${trial ? '&trial' : ''}`;

  return (
    <Page title={t('translations.title')} backTo="/settings?type=translations" backLabel={t('nav.settings')}>
      {dirty && <ContextualSaveBar onSave={() => void save()} onDiscard={() => setDraft(saved.data)} saving={saving} saveDisabled={trial} />}
      <LeavePrompt when={isDirty} />
      <div className="translation-editor">
        <p className="page-intro">{t('translations.intro')}</p>
        {trial && <Banner tone="info">{t('translations.trial')}</Banner>}
        {error && <Banner tone="critical" title={t('translations.failedToSaveTranslations')}>{error}</Banner>}
        <Card title={t('translations.languages.title')}>
          <div className="stack">
            <div>
              <Select
                label={t('translations.primaryLanguage')}
                value={draft.primaryLanguage}
                options={byName.map((code) => ({ value: code, label: name(code) }))}
                onChange={(code) => setDraft((d) => ({ ...d, primaryLanguage: code, additionalLanguages: d.additionalLanguages.filter((l) => l !== code) }))}
              />
              <p className="text-subdued">{t('translations.primaryLanguage.help')}</p>
            </div>
            <fieldset className="form-field">
              <legend className="form-field__label">{t('translations.detectMethod')}</legend>
              <div className="radio-group">
                {DETECT_METHODS.map((method) => (
                  <label key={method} className="radio-group__option">
                    <input type="radio" name="detectMethod" value={method} checked={draft.detectMethod === method} onChange={() => setDraft((d) => ({ ...d, detectMethod: method }))} />
                    <span>{t(`translations.detectMethod.${method}`)}</span>
                  </label>
                ))}
              </div>
            </fieldset>
            <fieldset className="form-field">
              <legend className="form-field__label">{t('translations.additionalLanguages')}</legend>
              <p className="text-subdued">{t('translations.additionalLanguages.help')}</p>
              <div className="checkbox-grid translation-languages">
                {byName
                  .filter((code) => code !== draft.primaryLanguage)
                  .map((code) => (
                    <label key={code} className="checkbox-row">
                      <input
                        type="checkbox"
                        checked={draft.additionalLanguages.includes(code)}
                        onChange={(e) => setDraft((d) => ({ ...d, additionalLanguages: e.target.checked ? [...d.additionalLanguages, code] : d.additionalLanguages.filter((l) => l !== code) }))}
                      />
                      <span lang={code}>{name(code)}</span>
                    </label>
                  ))}
              </div>
            </fieldset>
          </div>
        </Card>
        <Card title={t('translations.variants.title')}>
          {answer.variants.length === 0 ? (
            <EmptyState heading={t('translations.variants.empty')} />
          ) : (
            <ul className="translation-variants">
              {answer.variants.map((variant) => (
                <li key={variant.id} className="translation-variants__item">
                  <div className="translation-variants__text">
                    <h3 className="translation-variants__title">{variant.title}</h3>
                    <p className="text-subdued">{variant.description}</p>
                    <p className="text-subdued">{t('translations.variants.count', { count: variant.textCount })}</p>
                  </div>
                  <ButtonLink to={editorLink(variant.id)} aria-label={`${t('translations.variants.edit')}: ${variant.title}`}>
                    {t('translations.variants.edit')}
                  </ButtonLink>
                </li>
              ))}
            </ul>
          )}
        </Card>
      </div>
    </Page>
  );
}
