import { useState } from 'react';
import { useParams, useSearchParams } from 'react-router-dom';
import { ApiError } from '../../api/client';
import { versionsApi, type DocumentVersion, type VersionChange } from '../../api/endpoints';
import { useResource } from '../../api/use-resource';
import { Badge } from '../../components/Badge';
import { Banner } from '../../components/Banner';
import { Button } from '../../components/Button';
import { Card } from '../../components/Card';
import { EmptyState } from '../../components/EmptyState';
import { Modal } from '../../components/Modal';
import { Page } from '../../components/Page';
import { SkeletonPage, SkeletonText } from '../../components/Skeleton';
import { useLanguage, useT } from '../../i18n';
import { useToast } from '../../state/toasts';
import { LoadFailed } from '../../pages/LoadFailed';
import { NotFoundPage } from '../../pages/NotFoundPage';
import { paths } from '../../pages/program-paths';

/** The changes that made one version (from the one before it), in words; loads when shown. */
function VersionDiff({ id, version }: { id: string; version: number }) {
  const t = useT();
  const language = useLanguage();
  const diff = useResource<VersionChange[]>(`diff:${id}:${version}:${language}`, () => versionsApi.diff(id, version - 1, version, language));
  if (diff.error !== undefined) return <Banner tone="critical" title={t('versions.diffFailed')} action={{ label: t('common.reload'), onAction: diff.reload }} />;
  if (!diff.data) return <SkeletonText lines={2} />;
  if (diff.data.length === 0) return <p className="text-subdued">{t('versions.noChanges')}</p>;
  return (
    <div className="version-diff">
      <h3 className="version-diff__title">{t('versions.diffTitle', { from: version - 1, to: version })}</h3>
      <ul className="version-diff__changes" data-testid={`diff-${version}`}>
        {diff.data.map((c) => (
          <li key={c.path} className={`version-diff__change version-diff__change--${c.change}`}>
            {c.text}
          </li>
        ))}
      </ul>
    </div>
  );
}

/**
 * `/programs/versions/:id` (issue 15): a document's saved versions, newest first, each with the
 * changes that made it in words and a rollback (saved as a new version through the normal save, so
 * a refusal reads like a save's). `?back=` names the editor to return to (the program editor by default).
 */
export function VersionsPage() {
  const t = useT();
  const toast = useToast();
  const { id = '' } = useParams();
  const [search] = useSearchParams();
  const back = search.get('back') ?? paths.edit(id);
  const loaded = useResource(`versions:${id}`, () => versionsApi.list(id));
  const [open, setOpen] = useState<number | null>(null);
  const [confirming, setConfirming] = useState<DocumentVersion | null>(null);
  const [rolling, setRolling] = useState(false);
  const [refusal, setRefusal] = useState<{ message: string; details: string[] } | null>(null);

  if (loaded.loading && !loaded.data) return <SkeletonPage label={t('common.loading')} />;
  if (loaded.error instanceof ApiError && loaded.error.status === 404) return <NotFoundPage />;
  if (loaded.error !== undefined || !loaded.data) return <LoadFailed title={t('versions.link')} error={loaded.error} backTo={back} onRetry={loaded.reload} />;

  const { data: versions, document } = loaded.data;
  const title = (typeof document.data.title === 'string' && document.data.title) || (typeof document.data.name === 'string' && document.data.name) || document.kind;
  const shown = open ?? versions[0]?.version ?? null;

  async function rollback(v: DocumentVersion) {
    setRolling(true);
    setRefusal(null);
    try {
      const doc = await versionsApi.rollback(id, v.version, document.version);
      toast(t('versions.rolledBack', { version: doc.version }));
      setConfirming(null);
      setOpen(doc.version);
      loaded.reload();
    } catch (e) {
      setConfirming(null);
      setRefusal({ message: e instanceof Error ? e.message : String(e), details: e instanceof ApiError ? e.details.map((d) => (d.path ? `${d.path}: ${d.message}` : d.message)) : [] });
    } finally {
      setRolling(false);
    }
  }

  return (
    <Page title={t('versions.title', { title })} backTo={back} backLabel={t('versions.back')} narrow>
      {refusal && (
        <Banner tone="critical" title={t('versions.rollbackFailed')} onDismiss={() => setRefusal(null)}>
          <p>{refusal.message}</p>
          {refusal.details.length > 0 && (
            <ul>
              {refusal.details.map((d) => (
                <li key={d}>{d}</li>
              ))}
            </ul>
          )}
        </Banner>
      )}
      <Card title={t('versions.listTitle')}>
        {versions.length === 0 ? (
          <EmptyState heading={t('versions.empty')}>{t('versions.emptyBody')}</EmptyState>
        ) : (
          <ol className="version-list">
            {versions.map((v) => (
              <li key={v.version} className="version-list__item" data-testid={`version-${v.version}`}>
                <div className="version-list__head">
                  <strong>{t('versions.version', { version: v.version })}</strong>
                  {v.current && <Badge tone="success">{t('versions.current')}</Badge>}
                  <span className="text-subdued version-list__meta">{t('versions.savedBy', { date: new Date(v.createdAt).toLocaleString(), actor: v.actor })}</span>
                </div>
                <div className="version-list__actions">
                  {v.version > 1 && shown !== v.version && (
                    <Button variant="plain" onClick={() => setOpen(v.version)}>
                      {t('versions.showChanges')}
                    </Button>
                  )}
                  {!v.current && (
                    <Button onClick={() => setConfirming(v)}>{t('versions.rollback')}</Button>
                  )}
                </div>
                {shown === v.version && (v.version > 1 ? <VersionDiff id={id} version={v.version} /> : <p className="text-subdued">{t('versions.firstVersion')}</p>)}
              </li>
            ))}
          </ol>
        )}
      </Card>
      <Modal
        open={confirming !== null}
        title={t('versions.rollbackTitle', { version: confirming?.version ?? 0 })}
        onClose={() => setConfirming(null)}
        primaryAction={{ label: t('versions.rollbackConfirm'), onAction: () => confirming && void rollback(confirming), loading: rolling }}
      >
        <p>{t('versions.rollbackBody', { version: confirming?.version ?? 0 })}</p>
      </Modal>
    </Page>
  );
}
