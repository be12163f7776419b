import { useAtomValue } from 'jotai';
import { useMemo, useState, type ReactNode } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import type { JsonObject, KindDetail, StoredDocument } from '../../engine/types';
import { ApiError } from '../api/client';
import { api, type GateAnswer } from '../api/endpoints';
import { useLocalizedKind } from '../api/use-localized-kind';
import { useResource } from '../api/use-resource';
import { Badge } from '../components/Badge';
import { Button, ButtonLink } from '../components/Button';
import { LEAVE_WITHOUT_PROMPT } from '../components/LeavePrompt';
import { SkeletonPage } from '../components/Skeleton';
import { Tabs } from '../components/Tabs';
import { newDocumentData, withDefaults } from '../form/form-data';
import { currentLabelLanguage, useT, type AppLanguage } from '../i18n';
import { timezoneAtom } from '../state/session';
import { useToast } from '../state/toasts';
import { DeleteProgramModal } from './DeleteProgramModal';
import { documentTitle } from './document-title';
import { propertyNames } from './editor-sections';
import { LoadFailed } from './LoadFailed';
import { NotFoundPage } from './NotFoundPage';
import { GateBanner, isGated } from './PlanGate';
import { ProgramEditor } from './ProgramEditor';

/** Which document a screen edits. */
export type DocumentSource =
  /** A new document of `kind`: Save creates it. */
  | { mode: 'new'; kind: string }
  /** One document of a known kind; another kind's id is Not Found. */
  | { mode: 'edit'; kind: string; id: string }
  /** The shop's one document of a singleton kind, or a new one until it exists. */
  | { mode: 'singleton'; kind: string }
  /** Any document by id alone (`/programs/edit-settings/:id`). */
  | { mode: 'any'; id: string };

export interface LoadedDocument {
  /** The kind, labels in the admin's language (translated in place when it changes). */
  kind: KindDetail;
  /** The language `kind`'s labels were loaded in. */
  language: AppLanguage;
  /** The shop's gate answer for the kind's plan feature; null when the kind needs none. */
  gate: GateAnswer | null;
  /** Null until the document exists. */
  doc: StoredDocument | null;
  initialData: JsonObject;
}

/** One tab of a document editor: some of its top-level properties, or other content (a list). */
export interface EditorTab {
  id: string;
  label: string;
  /** Shown properties; all when neither `only` nor `except` is given. */
  only?: string[];
  except?: string[];
  /** Replaces the form on this tab. */
  content?: ReactNode;
}

async function loadDocument(source: DocumentSource): Promise<LoadedDocument> {
  const language = currentLabelLanguage();
  let doc: StoredDocument | null = null;
  if (source.mode === 'edit') doc = await api.doc(source.kind, source.id);
  else if (source.mode === 'any') doc = await api.findDocument(source.id);
  else if (source.mode === 'singleton') doc = (await api.docs(source.kind))[0] ?? null;
  const kindId = doc?.kind ?? (source.mode === 'any' ? '' : source.kind);
  const [kinds, kind] = await Promise.all([api.kinds(language), api.kind(kindId, language)]);
  const gate = kinds.find((summary) => summary.id === kindId)?.gate ?? null;
  return { kind, language, gate, doc, initialData: withDefaults(kind.schema, doc?.data) };
}

function sectionOf(tab: EditorTab | undefined, kind: KindDetail): string[] | undefined {
  if (!tab || (!tab.only && !tab.except)) return undefined;
  if (tab.only) return tab.only;
  const except = tab.except ?? [];
  return propertyNames(kind.schema).filter((name) => !except.includes(name));
}

export interface DocumentEditorPageProps {
  source: DocumentSource;
  /** The list this document belongs to. */
  backTo: string | ((loaded: LoadedDocument) => string);
  backLabel: string;
  /** The page title; the document's title or name (or the kind's title for a new one) unless told. */
  title?: (loaded: LoadedDocument) => string;
  /** Tabs over one document, selected by the `tab` query parameter; one save bar saves them all. */
  tabs?: EditorTab[];
  /** A fixed part of the document to show (a tier's rewards); the whole document is saved. */
  properties?: string[];
  /** Where to go once a new document is created; singletons stay on their page. */
  afterCreate?: (doc: StoredDocument) => string;
  /** Offers Delete on an existing document and goes back to the list after. */
  deletable?: boolean;
  secondaryActions?: (loaded: LoadedDocument) => ReactNode;
  /** Beside the form, with the unsaved data on every change (a live preview). */
  aside?: (data: JsonObject) => ReactNode;
  /** The one-line plain summary over the form, from the unsaved data on every change (ProgramEditor's `summary`). */
  summary?: (data: JsonObject) => string;
}

/**
 * The generic editor screen over `/api/kinds/:kind/docs`: loads the kind and the document, shows the
 * plan gate, saves with POST the first time and PUT (with the version read) after.
 */
export function DocumentEditorPage({ source, backTo, backLabel, title, tabs, properties, afterCreate, deletable, secondaryActions, aside, summary }: DocumentEditorPageProps) {
  const location = useLocation();
  const t = useT();
  const navigate = useNavigate();
  const toast = useToast();
  const [search, setSearch] = useSearchParams();
  const [deleting, setDeleting] = useState(false);
  const timezone = useAtomValue(timezoneAtom);
  const loaded = useResource(`document:${JSON.stringify(source)}`, () => loadDocument(source));
  // A new document's dates relative to today, computed here because the shop (and its timezone)
  // may arrive after the document's kind.
  const newData = useMemo(() => (loaded.data && !loaded.data.doc ? newDocumentData(loaded.data.kind.schema, timezone) : undefined), [loaded.data, timezone]);
  // A language switch translates the form in place: same document, same unsaved edits.
  const localizedKind = useLocalizedKind(loaded.data);

  if (loaded.loading && !loaded.data) return <SkeletonPage label={t('common.loading')} />;
  if (loaded.error instanceof ApiError && loaded.error.status === 404) return <NotFoundPage />;
  if (loaded.error || !loaded.data) {
    return <LoadFailed title={backLabel} error={loaded.error} onRetry={loaded.reload} />;
  }

  const loadedData = loaded.data;
  const current: LoadedDocument = localizedKind ? { ...loadedData, kind: localizedKind } : loadedData;
  const { kind, doc, gate } = current;
  const initialData = newData ?? current.initialData;
  const listPath = typeof backTo === 'function' ? backTo(current) : backTo;
  const tab = tabs?.find((candidate) => candidate.id === search.get('tab')) ?? tabs?.[0];
  const pageTitle = title ? title(current) : doc ? documentTitle(doc.data, kind.title) : kind.title;
  const status = doc?.data.status;
  const gated = isGated(gate);

  const beforeForm = (
    <>
      {gated && <GateBanner gate={gate} />}
      {tabs && tab && (
        <Tabs
          tabs={tabs}
          selected={tab.id}
          label={pageTitle}
          // Tabs move within one form: the leave prompt must not ask.
          onSelect={(id) => setSearch({ tab: id }, { replace: true, state: LEAVE_WITHOUT_PROMPT })}
        />
      )}
    </>
  );

  return (
    <>
      <ProgramEditor
        // A new version (own save or reload) starts the form again from the server's copy.
        key={doc ? `${doc.id}:${doc.version}` : `new:${timezone ?? ''}`}
        kind={kind}
        initialData={initialData}
        title={pageTitle}
        titleMeta={
          typeof status === 'boolean' ? (
            <Badge tone={status ? 'success' : 'neutral'}>{t(status ? 'programs.status.active' : 'programs.status.inactive')}</Badge>
          ) : undefined
        }
        backTo={listPath}
        backLabel={backLabel}
        properties={properties ?? sectionOf(tab, kind)}
        beforeForm={beforeForm}
        replaceForm={tab?.content}
        tabId={tab?.id}
        saveDisabled={gated}
        secondaryActions={
          <>
            {secondaryActions?.(current)}
            {doc && (
              // Issue 15: every saved document's versions, diffs and rollback, back to this editor.
              <ButtonLink variant="plain" to={`/programs/versions/${encodeURIComponent(doc.id)}?back=${encodeURIComponent(location.pathname + location.search)}`}>
                {t('versions.link')}
              </ButtonLink>
            )}
            {deletable && doc && (
              <Button variant="critical-plain" onClick={() => setDeleting(true)}>
                {t('common.delete')}
              </Button>
            )}
          </>
        }
        save={(data) => (doc ? api.updateDoc(kind.id, doc.id, data, doc.version) : api.createDoc(kind.id, data))}
        onSaved={(saved) => {
          toast(t('catalogue.saved'));
          if (!doc && afterCreate) navigate(afterCreate(saved), { replace: true });
          else loaded.setData({ ...loadedData, doc: saved, initialData: withDefaults(kind.schema, saved.data) });
        }}
        onReload={loaded.reload}
        {...(aside ? { aside } : {})}
        summary={summary}
      />
      {doc && (
        <DeleteProgramModal
          program={deleting ? { id: doc.id, kind: doc.kind, title: pageTitle } : null}
          deletedMessage={t('catalogue.deleted')}
          onClose={() => setDeleting(false)}
          onDeleted={() => navigate(listPath, { state: LEAVE_WITHOUT_PROMPT })}
        />
      )}
    </>
  );
}
