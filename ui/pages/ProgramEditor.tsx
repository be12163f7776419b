import type Form from '@rjsf/core';
import { useAtomValue, useSetAtom } from 'jotai';
import { startTransition, useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { crossFieldIssues } from '../../engine/cross-field';
import type { FieldIssue, JsonObject, KindDetail, StoredDocument } from '../../engine/types';
import { Banner } from '../components/Banner';
import { Button } from '../components/Button';
import { Card } from '../components/Card';
import { ContextualSaveBar } from '../components/ContextualSaveBar';
import { LeavePrompt } from '../components/LeavePrompt';
import { Page } from '../components/Page';
import { issuesToErrorSchema, pointerSegments, valueAtPointer } from '../form/error-schema';
import { sameFormData } from '../form/form-data';
import { SchemaForm } from '../form/SchemaForm';
import { hasFormGroups } from '../form/templates/ObjectFieldTemplate';
import { useLanguage, useT } from '../i18n';
import { currencyAtom } from '../state/session';
import { programGives } from './ProgramsTable';
import { useToast } from '../state/toasts';
import { unsavedChangesAtom } from '../state/unsaved';
import { inSection, mergeSection, pickSection, sectionSchema, sectionUiSchema } from './editor-sections';
import { describeSaveFailure, validationFailure, type SaveFailure } from './save-errors';

export interface ProgramEditorProps {
  kind: KindDetail;
  /** Starting data with schema defaults filled in (`withDefaults`). */
  initialData: JsonObject;
  title: string;
  titleMeta?: ReactNode;
  backTo: string;
  secondaryActions?: ReactNode;
  /** Sends the data; throws `ApiError` on failure. */
  save: (data: JsonObject) => Promise<StoredDocument>;
  /** Runs after a successful save, once the form counts as clean. */
  onSaved: (doc: StoredDocument) => void;
  /** Offered on a version conflict. */
  onReload?: () => void;
  /** Names the back arrow; "Programs" unless told. */
  backLabel?: string;
  /**
   * Shows only these top-level properties (one tab of a bigger document); the save bar still saves
   * the whole document, and server issues about other properties go to the banner.
   */
  properties?: readonly string[];
  /** Between the header and the form: tabs, a plan gate banner. */
  beforeForm?: ReactNode;
  /** Shown instead of the form (a tab that lists other documents); the save bar stays. */
  replaceForm?: ReactNode;
  /** Keeps Save off, e.g. when the shop's plan does not allow the kind. */
  saveDisabled?: boolean;
  /**
   * A document not saved yet: it can be saved as it starts (its template's defaults) with the page's
   * Save button, before any change raises the save bar.
   */
  isNew?: boolean;
  /** The selected tab's id when `beforeForm` holds tabs: the form becomes that tab's panel. */
  tabId?: string;
  /**
   * Shown beside the form (below it on a phone) with the data as edited, unsaved, on every
   * keystroke: the storefront designer's live preview.
   */
  aside?: (data: JsonObject) => ReactNode;
  /**
   * Below the form, with the data as edited and a setter that edits it like the form does (the
   * custom program's connection test sets `connectionStatus`).
   */
  afterForm?: (data: JsonObject, setData: (next: JsonObject) => void) => ReactNode;
  /**
   * The one-line plain summary over the form, from the data as edited ("Friends get €5.00 off their
   * first order…", "From 1,000 points: 1.5× points on orders"); '' shows none. Earning programs and
   * redeem rewards have theirs built in (`programGives`).
   */
  summary?: (data: JsonObject) => string;
}

/** Drops server issues whose field the merchant has since changed. */
function stillStanding(issues: FieldIssue[], before: JsonObject, after: JsonObject): FieldIssue[] {
  return issues.filter((issue) => issue.path === '' || sameFormData(valueAtPointer(before, issue.path), valueAtPointer(after, issue.path)));
}

/** "Design: Must match format" — an issue named by the title of the top-level property it sits under. */
function sectionMessage(schema: JsonObject, issue: FieldIssue): string {
  const [first = ''] = pointerSegments(issue.path);
  const property = (schema.properties as Record<string, { title?: unknown } | undefined> | undefined)?.[first];
  const name = typeof property?.title === 'string' ? property.title : first;
  return `${name}: ${issue.message}`;
}

/** The DOM id RJSF gives the control at a JSON Pointer (`/conditions/0/content` → `root_conditions_0_content`). */
function controlId(pointer: string): string {
  return ['root', ...pointerSegments(pointer)].join('_');
}

/** A program form with the save bar, leave prompt and save-error handling shared by new and edit. */
export function ProgramEditor(props: ProgramEditorProps) {
  const t = useT();
  const { kind, initialData, title, titleMeta, backTo, secondaryActions, save, onSaved, onReload } = props;
  const { backLabel, properties, beforeForm, replaceForm, saveDisabled, tabId, isNew } = props;
  const [baseline, setBaseline] = useState(initialData);
  const [formData, setFormDataState] = useState(initialData);
  /**
   * The data as typed: ahead of `formData` while the page's re-render for the last keystroke waits in
   * a transition (the field itself already shows it). Saving reads this, never a lagging state.
   */
  const typed = useRef(initialData);
  const setFormData = useCallback((next: JsonObject) => {
    typed.current = next;
    setFormDataState(next);
  }, []);
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState<SaveFailure | null>(null);
  const formRef = useRef<Form>(null);
  const bannerRef = useRef<HTMLDivElement>(null);
  /** Bumped on each failed save, so focus moves once per failure rather than on every edit. */
  const [failedSaves, setFailedSaves] = useState(0);
  const toast = useToast();
  const setUnsaved = useSetAtom(unsavedChangesAtom);
  const currency = useAtomValue(currencyAtom);
  const language = useLanguage();

  const dirty = !sameFormData(formData, baseline);
  const dirtyRef = useRef(dirty);
  dirtyRef.current = dirty;
  const isDirty = useCallback(() => dirtyRef.current, []);

  useEffect(() => {
    setUnsaved(dirty);
  }, [dirty, setUnsaved]);
  useEffect(() => () => setUnsaved(false), [setUnsaved]);

  useEffect(() => {
    if (failedSaves === 0) return;
    // Show the merchant what went wrong: the first field the server named, else the banner.
    const field = failure?.issues.find((issue) => issue.path !== '');
    const control = field ? document.getElementById(controlId(field.path)) : null;
    (control ?? bannerRef.current)?.focus();
    // Only a new failure moves focus; later edits to `failure` must not.
  }, [failedSaves]);

  const issues = failure?.issues;
  const shownIssues = useMemo(() => (properties ? issues?.filter((issue) => inSection(issue, properties)) : issues), [issues, properties]);
  const extraErrors = useMemo(() => (shownIssues?.length ? issuesToErrorSchema(shownIssues) : undefined), [shownIssues]);
  const schema = useMemo(() => (properties ? sectionSchema(kind.schema, properties) : kind.schema), [kind.schema, properties]);
  const uiSchema = useMemo(() => (properties ? sectionUiSchema(kind.uiSchema, properties, kind.schema) : kind.uiSchema), [kind.uiSchema, kind.schema, properties]);
  // The form is handed the data as typed, never a state a pending transition has not caught up with
  // (a render for another reason, e.g. Save's spinner, must not hand it older data).
  const live = typed.current;
  const shownData = useMemo(() => (properties ? pickSection(live, properties) : live), [live, properties]);

  function onChange(shown: JsonObject) {
    const before = typed.current;
    const next = properties ? mergeSection(before, shown, properties) : shown;
    typed.current = next;
    // The keystroke's own paint needs only the field (RJSF re-rendered it already); the page around
    // it (save bar, preview, banner) follows in a transition, off the keystroke's path (issue 12).
    startTransition(() => {
      setFailure((current) => (current?.issues.length ? { ...current, issues: stillStanding(current.issues, before, next) } : current));
      setFormDataState(next);
    });
  }

  /** Enter in a field saves what there is to save (spec walkthrough: "Enter saves a form"). */
  function saveOnEnter() {
    if (isNew || !sameFormData(typed.current, baseline)) void onSave();
  }

  function discard() {
    setFormData(baseline);
    setFailure(null);
  }

  async function onSave() {
    if (saveDisabled || saving) return;
    if (formRef.current && !formRef.current.validateForm()) return;
    // The server's own cross-field rules (spec 002 §5), run here first so the merchant sees the
    // spec's message on its field without a round trip; the server still checks them on save.
    const data = typed.current;
    const crossField = crossFieldIssues(kind.id, data);
    if (crossField.length > 0) {
      setFailure(validationFailure(crossField, t('programs.fixErrors')));
      setFailedSaves((count) => count + 1);
      return;
    }
    setSaving(true);
    setFailure(null);
    try {
      const doc = await save(data);
      setBaseline(data);
      // Counts as clean now, so the page may navigate away in this same tick.
      dirtyRef.current = false;
      onSaved(doc);
    } catch (error) {
      const next = describeSaveFailure(error);
      setFailure(next);
      setFailedSaves((count) => count + 1);
      // Shown once: a failure with a banner (or field errors) needs no toast besides.
      if (next.toast && !next.banner) toast(next.toast, 'error');
    } finally {
      setSaving(false);
    }
  }

  // What the program gives, in one plain line over the form ("Customers earn 10 points for every $100.00 spent",
  // a reward "Reward: 500 points → $5.00 off").
  const gives = (kind.family === 'earning' || kind.family === 'redeem') && !properties ? programGives({ kind: kind.id, data: formData }, currency, language) : '';
  const summaryKey = kind.family === 'redeem' ? 'editor.summary.redeem' : kind.id === 'earning.milestone' ? 'editor.summary.milestone' : 'editor.summary.earn';
  const summary = props.summary ? props.summary(formData) : gives && t(summaryKey, { gives });
  const banner = failure?.banner;
  // Issues on properties another tab shows: named by their section here, since their fields are not on screen.
  const elsewhere = properties ? (issues ?? []).filter((issue) => issue.path !== '' && !inSection(issue, properties)).map((issue) => sectionMessage(kind.schema, issue)) : [];
  const bannerMessages = banner ? [...banner.messages, ...elsewhere] : [];
  return (
    <Page
      title={title}
      titleMeta={titleMeta}
      backTo={backTo}
      backLabel={backLabel ?? t('programs.backToList')}
      secondaryActions={secondaryActions}
      narrow={!props.aside}
      // A new document saves as it starts; once edited, the save bar's Save takes over.
      primaryAction={
        isNew && !dirty ? (
          <Button variant="primary" onClick={onSave} loading={saving} disabled={saveDisabled}>
            {t('common.save')}
          </Button>
        ) : undefined
      }
    >
      {dirty && <ContextualSaveBar onSave={onSave} onDiscard={discard} saving={saving} saveDisabled={saveDisabled} />}
      <LeavePrompt when={isDirty} />
      {banner && (
        <Banner
          ref={bannerRef}
          tone="critical"
          title={banner.title}
          action={banner.reload && onReload ? { label: t('common.reload'), onAction: onReload } : undefined}
          onDismiss={() => setFailure((current) => (current ? { ...current, banner: undefined } : current))}
        >
          {bannerMessages.length > 0 && (
            <ul>
              {bannerMessages.map((message) => (
                <li key={message}>{message}</li>
              ))}
            </ul>
          )}
        </Banner>
      )}
      {beforeForm}
      <div className={props.aside ? 'editor-with-aside' : undefined}>
        <div role={tabId ? 'tabpanel' : undefined} aria-labelledby={tabId ? `tab-${tabId}` : undefined}>
          {replaceForm ??
            (hasFormGroups(uiSchema) ? (
              // A template that groups its fields (ui.json `ui:groups`) draws its own cards.
              <>
                {summary && <p className="editor-summary editor-summary--above">{summary}</p>}
                <SchemaForm schema={schema} uiSchema={uiSchema} formData={shownData} onChange={onChange} extraErrors={extraErrors} formRef={formRef} disabled={saving} onSubmit={saveOnEnter} />
              </>
            ) : (
              <Card>
                {summary && <p className="editor-summary">{summary}</p>}
                <SchemaForm schema={schema} uiSchema={uiSchema} formData={shownData} onChange={onChange} extraErrors={extraErrors} formRef={formRef} disabled={saving} onSubmit={saveOnEnter} />
              </Card>
            ))}
          {props.afterForm?.(formData, setFormData)}
        </div>
        {props.aside && <aside className="editor-aside">{props.aside(formData)}</aside>}
      </div>
    </Page>
  );
}
