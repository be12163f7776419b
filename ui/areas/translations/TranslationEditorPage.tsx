import { useSetAtom } from 'jotai';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { ApiError } from '../../api/client';
import { useResource } from '../../api/use-resource';
import { Banner } from '../../components/Banner';
import { ButtonLink } from '../../components/Button';
import { Card } from '../../components/Card';
import { ContextualSaveBar } from '../../components/ContextualSaveBar';
import { EmptyState } from '../../components/EmptyState';
import { LEAVE_WITHOUT_PROMPT, LeavePrompt } from '../../components/LeavePrompt';
import { Page } from '../../components/Page';
import { Select } from '../../components/Select';
import { SkeletonPage } from '../../components/Skeleton';
import { Tabs } from '../../components/Tabs';
import { labelsFor, useLanguage, useT, type Translate } from '../../i18n';
import { useToast } from '../../state/toasts';
import { unsavedChangesAtom } from '../../state/unsaved';
import { languageName, placeholdersOf, translationApi, type ProgramRow, type Translation, type TranslationAnswer, type VariantDetail, type VariantField } from './api';
import './translations.css';

/** The variant the editor opens when the URL names none (Settings links to the editor without a type). */
export const DEFAULT_VARIANT = 'widget-design';
/** The tab of the program names (spec 001 §2 "program names for earning and spending programs"). */
export const PROGRAM_NAMES_TAB = 'program-names';
/** The longest text the server accepts for one key (server/services/translations.ts MAX_TEXT_LENGTH). */
const MAX_TEXT_LENGTH = 1000;

/** Per language, the merchant's texts of this variant by key. */
type Texts = Record<string, Record<string, string>>;

/** The id of a text's input: the `field` query parameter focuses it. */
export const fieldInputId = (key: string): string => `translation-field-${key}`;
const errorKey = (language: string, key: string) => `${language}\n${key}`;

/**
 * `/settings/translations/editor?type=<variant>&tab=&languageCode=&field=` (spec 001 §2, §4, §5;
 * issue 13): the storefront texts of one variant in each of the shop's languages, with a search
 * over label, key, current and default text, language tabs, the variant's own tabs, program names,
 * the save bar (off with `?trial`) and the leave prompt.
 */
export function TranslationEditorPage() {
  const t = useT();
  const [params] = useSearchParams();
  const type = params.get('type') || DEFAULT_VARIANT;
  const labels = labelsFor(useLanguage());
  // Another admin language reloads the labels only: the edits on screen stay (keepData, same Editor).
  const resource = useResource(`translation:${type}:${labels}`, () => translationApi.get(type, labels), { keepData: true });
  const back = '/settings?type=translations';

  if (resource.loading && !resource.data) return <SkeletonPage label={t('common.loading')} />;
  if (resource.error || !resource.data?.variant || !resource.data.defaults) {
    return (
      <Page title={t('translations.title')} backTo={back} backLabel={t('nav.settings')}>
        <Banner tone="critical" title={t('translations.loadError')} action={{ label: t('translations.retry'), onAction: resource.reload }}>
          {resource.error instanceof Error ? resource.error.message : null}
        </Banner>
      </Page>
    );
  }
  return <Editor key={type} answer={resource.data} onReloaded={resource.setData} />;
}

/** The texts of `content` for one variant, per language (a copy). */
function variantTexts(content: Translation['content'], variant: string): Texts {
  const out: Texts = {};
  for (const [language, byVariant] of Object.entries(content)) if (byVariant[variant]) out[language] = { ...byVariant[variant] };
  return out;
}

/** Only the texts that differ from the shipped ones and are not empty, keys sorted: what a save keeps. */
function normalise(texts: Texts, defaults: Record<string, Record<string, string>>): Texts {
  const out: Texts = {};
  for (const language of Object.keys(texts).sort()) {
    const kept = Object.entries(texts[language] ?? {})
      .filter(([key, text]) => text.trim() !== '' && text !== defaults[language]?.[key])
      .sort(([a], [b]) => a.localeCompare(b));
    if (kept.length > 0) out[language] = Object.fromEntries(kept);
  }
  return out;
}

/** The placeholder rule on one text, as the server states it; null when the text keeps them. */
function placeholderError(t: Translate, field: VariantField, text: string): string | null {
  if (text.trim() === '') return null;
  if (text.length > MAX_TEXT_LENGTH) return t('translations.editor.tooLong', { max: MAX_TEXT_LENGTH });
  const found = placeholdersOf(text);
  const list = (names: string[]) => names.map((n) => `{{${n}}}`).join(', ');
  const missing = field.placeholders.filter((p) => !found.includes(p));
  if (missing.length > 0) return t('translations.editor.placeholderMissing', { list: list(missing) });
  const extra = found.filter((p) => !field.placeholders.includes(p));
  if (extra.length > 0) return t('translations.editor.placeholderExtra', { list: list(extra) });
  return null;
}

/** Program id → language → name, only the languages with a name. */
type Names = Record<string, Record<string, string>>;

const savedNames = (program: ProgramRow): Record<string, string> => {
  const value = program.data.translateTitle;
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, string>) : {};
};

function Editor({ answer, onReloaded }: { answer: TranslationAnswer; onReloaded: (next: TranslationAnswer) => void }) {
  const t = useT();
  const ui = useLanguage();
  const toast = useToast();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const variant = answer.variant as VariantDetail;
  const defaults = answer.defaults as Record<string, Record<string, string>>;
  const trial = params.has('trial');

  const [saved, setSaved] = useState({ data: answer.data, version: answer.version });
  const [draft, setDraft] = useState<Texts>(() => variantTexts(answer.data.content, variant.id));
  const [names, setNames] = useState<Names>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [query, setQuery] = useState('');
  const [saving, setSaving] = useState(false);

  const programs = useResource(`translation-programs:${variant.programNames}`, async () =>
    variant.programNames ? { earning: await translationApi.programs('earning'), spending: await translationApi.programs('spending') } : { earning: [], spending: [] },
  );

  // Languages: the primary one first, then the additional ones; a storefront language named in the URL too.
  const languages = useMemo(() => {
    const list = [saved.data.primaryLanguage, ...saved.data.additionalLanguages];
    const asked = params.get('languageCode');
    if (asked && answer.languages.includes(asked) && !list.includes(asked)) list.push(asked);
    return [...new Set(list)];
  }, [saved.data, params, answer.languages]);
  const language = languages.find((l) => l === params.get('languageCode')) ?? saved.data.primaryLanguage;
  const groups = useMemo(
    () => [...variant.tabs.map((tab) => ({ id: tab.id, label: tab.title })), ...(variant.programNames ? [{ id: PROGRAM_NAMES_TAB, label: t('translations.editor.programs.tab') }] : [])],
    [variant, t],
  );
  const tab = groups.find((g) => g.id === params.get('tab'))?.id ?? groups[0]?.id ?? '';
  const fieldsByKey = useMemo(() => new Map(variant.tabs.flatMap((g) => g.fields.map((f) => [f.key, { field: f, tab: g.id }] as const))), [variant]);

  /** Changes query parameters without a history entry and without the leave prompt (they are views of the same page). */
  const setParam = useCallback(
    (changes: Record<string, string | null>) => {
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          for (const [name, value] of Object.entries(changes)) {
            if (value === null) next.delete(name);
            else next.set(name, value);
          }
          return next;
        },
        { replace: true, state: LEAVE_WITHOUT_PROMPT },
      );
    },
    [setParams],
  );

  // `field`: open its tab, scroll to it and focus it (spec 001 §2).
  const field = params.get('field');
  const focusedFor = useRef<string | null>(null);
  useEffect(() => {
    if (!field || focusedFor.current === `${field}|${language}`) return;
    const owner = fieldsByKey.get(field);
    if (!owner) return;
    if (query) setQuery('');
    if (owner.tab !== tab) {
      setParam({ tab: owner.tab });
      return;
    }
    const element = document.getElementById(fieldInputId(field));
    if (!element) return;
    focusedFor.current = `${field}|${language}`;
    element.scrollIntoView?.({ block: 'center' });
    element.focus();
  }, [field, tab, language, fieldsByKey, setParam, query]);

  const savedTexts = useMemo(() => normalise(variantTexts(saved.data.content, variant.id), defaults), [saved.data.content, variant.id, defaults]);
  const textsDirty = JSON.stringify(normalise(draft, defaults)) !== JSON.stringify(savedTexts);
  const changedPrograms = useMemo(() => {
    const all = [...(programs.data?.earning ?? []), ...(programs.data?.spending ?? [])];
    return all.filter((p) => {
      const edits = names[p.id];
      if (!edits) return false;
      const before = savedNames(p);
      return Object.entries(edits).some(([l, name]) => name.trim() !== (before[l] ?? '').trim());
    });
  }, [programs.data, names]);
  const dirty = textsDirty || changedPrograms.length > 0;
  const dirtyRef = useRef(dirty);
  dirtyRef.current = dirty;
  const isDirty = useCallback(() => dirtyRef.current, []);
  const setUnsaved = useSetAtom(unsavedChangesAtom);
  useEffect(() => setUnsaved(dirty), [dirty, setUnsaved]);
  useEffect(() => () => setUnsaved(false), [setUnsaved]);

  const valueOf = (key: string, inLanguage = language): string => draft[inLanguage]?.[key] ?? defaults[inLanguage]?.[key] ?? defaults.en?.[key] ?? '';

  function edit(key: string, text: string) {
    setDraft((current) => ({ ...current, [language]: { ...(current[language] ?? {}), [key]: text } }));
    setErrors((current) => {
      const id = errorKey(language, key);
      if (!(id in current)) return current;
      const next = { ...current };
      delete next[id];
      return next;
    });
  }

  function discard() {
    setDraft(variantTexts(saved.data.content, variant.id));
    setNames({});
    setErrors({});
  }

  /** Shows the first error's field: its language, its tab, focused. */
  function showFirst(found: Record<string, string>) {
    const first = Object.keys(found)[0];
    if (!first) return;
    const [errLanguage, key] = first.split('\n') as [string, string];
    focusedFor.current = null;
    setQuery('');
    setParam({ languageCode: errLanguage, tab: fieldsByKey.get(key)?.tab ?? tab, field: key });
  }

  async function save() {
    if (trial || saving) return;
    // Saving validates first, then saves (spec 001 §4).
    const found: Record<string, string> = {};
    for (const [l, texts] of Object.entries(draft)) {
      for (const [key, text] of Object.entries(texts)) {
        const owner = fieldsByKey.get(key);
        const problem = owner ? placeholderError(t, owner.field, text) : null;
        if (problem) found[errorKey(l, key)] = problem;
      }
    }
    if (Object.keys(found).length > 0) {
      setErrors(found);
      showFirst(found);
      toast(t('translations.failedToSaveTranslations'), 'error');
      return;
    }
    setSaving(true);
    try {
      if (textsDirty) {
        const content: Translation['content'] = structuredClone(saved.data.content);
        const mine = normalise(draft, defaults);
        for (const l of new Set([...Object.keys(content), ...Object.keys(mine)])) {
          const byVariant = { ...(content[l] ?? {}) };
          delete byVariant[variant.id];
          if (mine[l]) byVariant[variant.id] = mine[l];
          if (Object.keys(byVariant).length > 0) content[l] = byVariant;
          else delete content[l];
        }
        const result = await translationApi.save({ ...saved.data, content }, saved.version);
        setSaved({ data: result.data, version: result.version });
        setDraft(variantTexts(result.data.content, variant.id));
        onReloaded({ ...answer, data: result.data, version: result.version });
      }
      for (const program of changedPrograms) {
        const merged: Record<string, string> = { ...savedNames(program) };
        for (const [l, name] of Object.entries(names[program.id] ?? {})) {
          if (name.trim() === '') delete merged[l];
          else merged[l] = name.trim();
        }
        await translationApi.saveProgramNames(program, merged);
      }
      if (changedPrograms.length > 0) {
        setNames({});
        programs.reload();
      }
      setErrors({});
      toast(t('translations.translationsSaved'));
    } catch (error) {
      const fromServer: Record<string, string> = {};
      if (error instanceof ApiError) {
        for (const detail of error.details) {
          const [root, l, v, ...rest] = detail.path.split('/').slice(1).map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
          if (root === 'content' && l && v === variant.id && rest.length > 0) fromServer[errorKey(l, rest.join('/'))] = detail.message;
        }
      }
      setErrors(fromServer);
      showFirst(fromServer);
      toast(t('translations.failedToSaveTranslations'), 'error');
    } finally {
      setSaving(false);
    }
  }

  const needle = query.trim().toLowerCase();
  const matches = useMemo(() => {
    if (!needle) return [];
    return variant.tabs.flatMap((g) =>
      g.fields.filter((f) => [f.label, f.key, draft[language]?.[f.key] ?? '', defaults[language]?.[f.key] ?? ''].some((text) => text.toLowerCase().includes(needle))),
    );
  }, [needle, variant, draft, language, defaults]);

  const name = (code: string) => languageName(code, ui);
  const shownFields = needle ? matches : (variant.tabs.find((g) => g.id === tab)?.fields ?? []);

  return (
    <Page
      title={t('translations.editor.title', { variant: variant.title })}
      backTo="/settings?type=translations"
      backLabel={t('nav.settings')}
      secondaryActions={<ButtonLink to={`/translations${trial ? '?trial' : ''}`}>{t('translations.editor.languages')}</ButtonLink>}
    >
      {dirty && <ContextualSaveBar onSave={() => void save()} onDiscard={discard} saving={saving} saveDisabled={trial} />}
      <LeavePrompt when={isDirty} />
      <div className="translation-editor">
        {trial && <Banner tone="info">{t('translations.trial')}</Banner>}
        <Card>
          <div className="translation-editor__toolbar">
            <Select
              label={t('translations.editor.variant')}
              value={variant.id}
              options={answer.variants.map((v) => ({ value: v.id, label: v.title }))}
              onChange={(next) => navigate(`/settings/translations/editor?type=${encodeURIComponent(next)}${trial ? '&trial' : ''}`)}
            />
            <div className="inline-form__field translation-editor__search">
              <label htmlFor="translation-search">{t('translations.editor.search')}</label>
              <span className="input">
                <input id="translation-search" className="input__field" type="search" value={query} onChange={(e) => setQuery(e.target.value)} aria-describedby="translation-search-help" />
              </span>
              <span id="translation-search-help" className="text-subdued">
                {t('translations.editor.searchHelp')}
              </span>
            </div>
          </div>
          <p className="page-intro">{variant.description}</p>
          <div className="translation-editor__tabs">
            <Tabs
              label={t('translations.editor.languageTabs')}
              tabs={languages.map((l) => ({ id: `language-${l}`, label: l === saved.data.primaryLanguage ? t('translations.editor.primary', { language: name(l) }) : name(l) }))}
              selected={`language-${language}`}
              onSelect={(id) => setParam({ languageCode: id.slice('language-'.length), field: null })}
            />
          </div>
        </Card>

        {!needle && (
          <div className="translation-editor__tabs">
            <Tabs label={t('translations.editor.groupTabs')} tabs={groups.map((g) => ({ id: `group-${g.id}`, label: g.label }))} selected={`group-${tab}`} onSelect={(id) => setParam({ tab: id.slice('group-'.length), field: null })} />
          </div>
        )}

        {needle && <p className="text-subdued" role="status">{matches.length > 0 ? t('translations.editor.results', { count: matches.length }) : ''}</p>}

        {!needle && tab === PROGRAM_NAMES_TAB ? (
          <ProgramNames
            language={language}
            titleLanguage={variant.programNameLanguages[language]}
            languageLabel={name(language)}
            programs={programs.data}
            loading={programs.loading}
            failed={Boolean(programs.error)}
            onRetry={programs.reload}
            names={names}
            onChange={(id, code, text) => setNames((current) => ({ ...current, [id]: { ...(current[id] ?? {}), [code]: text } }))}
          />
        ) : (
          <Card>
            {needle && matches.length === 0 ? (
              <EmptyState heading={t('translations.editor.noResults', { query: query.trim() })} />
            ) : (
              <div className="translation-editor__fields" lang={language}>
                {shownFields.map((f) => (
                  <TextField key={`${language}:${f.key}`} field={f} value={valueOf(f.key)} fallback={defaults[language]?.[f.key] ?? ''} error={errors[errorKey(language, f.key)]} onChange={(text) => edit(f.key, text)} />
                ))}
              </div>
            )}
          </Card>
        )}

        {variant.links.length > 0 && (
          <Card title={t('translations.editor.links')}>
            <ul className="translation-editor__links">
              {variant.links.map((link) => (
                <li key={link.to}>
                  <Link to={link.to}>{link.label}</Link>
                </li>
              ))}
            </ul>
          </Card>
        )}
      </div>
    </Page>
  );
}

/** One text: its label and key, the input, the default text, the placeholder rule and its error. */
function TextField({ field, value, fallback, error, onChange }: { field: VariantField; value: string; fallback: string; error?: string; onChange: (text: string) => void }) {
  const t = useT();
  const id = fieldInputId(field.key);
  const describedBy = [`${id}-default`, field.placeholders.length > 0 ? `${id}-rule` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  const common = {
    id,
    className: 'input__field',
    value,
    placeholder: fallback,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': describedBy,
    onChange: (e: { target: { value: string } }) => onChange(e.target.value),
  } as const;
  return (
    <div className="form-field translation-field" data-testid={`translation-field-${field.key}`}>
      <label className="form-field__label" htmlFor={id}>
        {field.label} <code className="translation-field__key">{field.key}</code>
      </label>
      <div className={error ? 'input input--invalid' : 'input'}>{fallback.length > 60 ? <textarea rows={2} {...common} /> : <input type="text" {...common} />}</div>
      <p id={`${id}-default`} className="form-field__help translation-field__default">
        {t('translations.editor.default', { text: fallback })}
      </p>
      {field.placeholders.length > 0 && (
        <p id={`${id}-rule`} className="form-field__help">
          {t('translations.editor.placeholders', { list: field.placeholders.map((p) => `{{${p}}}`).join(', ') })}
        </p>
      )}
      {error && (
        <div id={`${id}-error`} className="form-field__error" role="alert">
          <p>
            <span className="form-field__error-icon" aria-hidden="true">
              !
            </span>
            {error}
          </p>
        </div>
      )}
    </div>
  );
}

/** The earning and spending programs' names in the selected language (their `translateTitle`). */
function ProgramNames(props: {
  language: string;
  /** The code of `language` in the programs' translateTitle; undefined when a name cannot be saved in it. */
  titleLanguage: string | undefined;
  languageLabel: string;
  programs: { earning: ProgramRow[]; spending: ProgramRow[] } | undefined;
  loading: boolean;
  failed: boolean;
  onRetry: () => void;
  names: Names;
  onChange: (programId: string, titleLanguage: string, text: string) => void;
}) {
  const t = useT();
  const { language, programs, names, onChange } = props;
  if (props.loading && !programs) return <SkeletonPage label={t('common.loading')} cards={1} />;
  if (props.failed || !programs) return <Banner tone="critical" title={t('translations.editor.programs.error')} action={{ label: t('translations.retry'), onAction: props.onRetry }} />;
  const code = props.titleLanguage;
  if (!code) return <Banner tone="info">{t('translations.editor.programs.unavailable', { language: props.languageLabel })}</Banner>;
  const section = (title: string, list: ProgramRow[], manage: { to: string; label: string }[]) => (
    <Card
      title={title}
      actions={
        <span className="translation-editor__manage">
          {manage.map((m) => (
            <Link key={m.to} to={m.to}>
              {m.label}
            </Link>
          ))}
        </span>
      }
    >
      {list.length === 0 ? (
        <p className="text-subdued">{t('translations.editor.programs.empty')}</p>
      ) : (
        <div className="translation-editor__fields" lang={language}>
          {list.map((program) => {
            const id = `program-name-${program.id}`;
            return (
              <div key={`${language}:${program.id}`} className="form-field translation-field">
                <label className="form-field__label" htmlFor={id}>
                  {program.title}
                </label>
                <div className="input">
                  <input id={id} className="input__field" type="text" maxLength={255} placeholder={program.title} value={names[program.id]?.[code] ?? savedNames(program)[code] ?? ''} onChange={(e) => onChange(program.id, code, e.target.value)} />
                </div>
              </div>
            );
          })}
        </div>
      )}
    </Card>
  );
  return (
    <div className="stack">
      <p className="text-subdued">{t('translations.editor.programs.help')}</p>
      {section(t('translations.editor.programs.earning'), programs.earning, [
        { to: '/programs?type=earning', label: t('translations.editor.manageEarning') },
        { to: '/programs?type=milestone', label: t('translations.editor.manageMilestones') },
      ])}
      {section(t('translations.editor.programs.spending'), programs.spending, [{ to: '/programs?type=redeem', label: t('translations.editor.manageRedeem') }])}
    </div>
  );
}
