import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { ApiError } from '../../../api/client';
import { importApi, type CustomerImport, type ImportField, type ImportKind, type ImportTierRule, type UploadedCustomerImport } from '../../../api/endpoints';
import { useResource } from '../../../api/use-resource';
import { Badge, type BadgeTone } from '../../../components/Badge';
import { Banner } from '../../../components/Banner';
import { Button } from '../../../components/Button';
import { Card } from '../../../components/Card';
import { Select } from '../../../components/Select';
import { EmptyState } from '../../../components/EmptyState';
import { IndexTable, IndexTableRow } from '../../../components/IndexTable';
import { Page } from '../../../components/Page';
import { useT, type MessageKey } from '../../../i18n';
import { useToast } from '../../../state/toasts';
import { Icon } from '../../../components/Icon';

const FIELDS: ImportField[] = ['customerId', 'email', 'phone', 'firstName', 'lastName', 'points', 'birthday', 'tier', 'createDate', 'type'];
const fieldLabels: Record<ImportField, MessageKey> = {
  customerId: 'import.field.customerId',
  email: 'import.field.email',
  phone: 'import.field.phone',
  firstName: 'import.field.firstName',
  lastName: 'import.field.lastName',
  points: 'import.field.points',
  birthday: 'import.field.birthday',
  tier: 'import.field.tier',
  createDate: 'import.field.createDate',
  type: 'import.field.type',
};
const KINDS: ImportKind[] = ['customers', 'birthday', 'points'];
const kindLabels: Record<ImportKind, MessageKey> = { customers: 'import.kind.customers', birthday: 'import.kind.birthday', points: 'import.kind.points' };
const statusLabels: Record<CustomerImport['status'], MessageKey> = {
  uploaded: 'import.status.uploaded',
  mapped: 'import.status.mapped',
  migrating: 'import.status.migrating',
  completed: 'import.status.completed',
  failed: 'import.status.failed',
};
const statusTones: Record<CustomerImport['status'], BadgeTone> = { uploaded: 'neutral', mapped: 'info', migrating: 'info', completed: 'success', failed: 'critical' };

/** The wizard's steps (spec 002 §2 Migration wizard, §4 Migration flow). */
type Step = 'upload' | 'map' | 'tier' | 'ready' | 'migrating' | 'completed';
const STEPS: Step[] = ['upload', 'map', 'tier', 'ready', 'migrating', 'completed'];
const stepLabels: Record<Step, MessageKey> = {
  upload: 'import.step.upload',
  map: 'import.step.map',
  tier: 'import.step.tier',
  ready: 'import.step.ready',
  migrating: 'import.step.migrating',
  completed: 'import.step.completed',
};

/** The server's message, with its details ("Email header is missing", …) under it. */
function ErrorBanner({ error, title }: { error: unknown; title: string }) {
  const details = error instanceof ApiError ? error.details : [];
  return (
    <Banner tone="critical" title={error instanceof ApiError && error.status !== 0 ? error.message : title}>
      {details.length > 0 && (
        <ul className="import-wizard__issues">
          {details.map((d, i) => (
            <li key={i}>{d.message}</li>
          ))}
        </ul>
      )}
    </Banner>
  );
}

function Steps({ current }: { current: Step }) {
  const t = useT();
  const at = STEPS.indexOf(current);
  return (
    <ol className="import-steps" aria-label={t('import.steps')}>
      {STEPS.map((s, i) => (
        <li key={s} className={i < at ? 'import-steps__step import-steps__step--done' : i === at ? 'import-steps__step import-steps__step--current' : 'import-steps__step'} aria-current={i === at ? 'step' : undefined}>
          <span className="import-steps__number" aria-hidden="true">
            {i + 1}
          </span>
          {t(stepLabels[s])}
        </li>
      ))}
    </ol>
  );
}

/** Step 1: the kind of file and the file itself. */
function UploadStep({ onUploaded }: { onUploaded: (u: UploadedCustomerImport) => void }) {
  const t = useT();
  const [kind, setKind] = useState<ImportKind>('customers');
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!file) return;
    setBusy(true);
    setError(undefined);
    try {
      onUploaded(await importApi.upload(file, kind));
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card title={t('import.upload.title')}>
      <form className="import-wizard__form" onSubmit={submit}>
        {error !== undefined && <ErrorBanner error={error} title={t('import.failed')} />}
        <Select label={t('import.upload.kind')} value={kind} options={KINDS.map((k) => ({ value: k, label: t(kindLabels[k]) }))} onChange={(v) => setKind(v as ImportKind)} />
        <p className="text-subdued">{t(kind === 'customers' ? 'import.upload.helpCustomers' : kind === 'birthday' ? 'import.upload.helpBirthday' : 'import.upload.helpPoints')}</p>
        <label className="import-wizard__file">
          <span>{t('import.upload.file')}</span>
          <input type="file" accept=".csv,text/csv" onChange={(e) => setFile(e.target.files?.[0] ?? null)} />
        </label>
        <p className="text-subdued">{t('import.upload.limits')}</p>
        <div>
          <Button type="submit" variant="primary" disabled={!file} loading={busy}>
            {t('import.upload.submit')}
          </Button>
        </div>
      </form>
    </Card>
  );
}

/** Step 2: a select per header, with the first rows beside it. */
function MapStep({ upload, mapping, onChange, onBack, onNext }: { upload: UploadedCustomerImport; mapping: Record<string, ImportField | 'ignore'>; onChange: (m: Record<string, ImportField | 'ignore'>) => void; onBack: () => void; onNext: () => void }) {
  const t = useT();
  const used = Object.values(mapping);
  const hasIdentifier = used.includes('customerId') || used.includes('email') || used.includes('phone');
  const duplicated = FIELDS.filter((f) => used.filter((u) => u === f).length > 1);
  return (
    <>
      <Card title={t('import.map.title')}>
        <p className="text-subdued">{t('import.map.help', { file: upload.fileName, rows: upload.totalRows })}</p>
        {!hasIdentifier && <Banner tone="warning" title={t('import.map.needIdentifier')} />}
        {duplicated.length > 0 && <Banner tone="warning" title={t('import.map.duplicated', { fields: duplicated.map((f) => t(fieldLabels[f])).join(', ') })} />}
        <div className="import-map">
          {upload.headers.map((header, column) => (
            <label key={header} className="import-map__row">
              <span className="import-map__header">{header}</span>
              <span className="import-map__sample text-subdued">{upload.preview[0]?.[column] ?? ''}</span>
              <span className="select">
                <select className="select__field" aria-label={t('import.map.fieldFor', { header })} value={mapping[header] ?? 'ignore'} onChange={(e) => onChange({ ...mapping, [header]: e.target.value as ImportField | 'ignore' })}>
                  <option value="ignore">{t('import.field.ignore')}</option>
                  {FIELDS.map((f) => (
                    <option key={f} value={f}>
                      {t(fieldLabels[f])}
                    </option>
                  ))}
                </select>
                <Icon name="chevron-down" className="select__chevron" />
              </span>
            </label>
          ))}
        </div>
      </Card>
      <Card title={t('import.map.preview')} flush>
        {upload.preview.length === 0 ? (
          <EmptyState heading={t('import.map.noRows')} />
        ) : (
          <div className="import-preview">
            <IndexTable label={t('import.map.preview')} headings={upload.headers.map((h) => ({ title: h }))}>
              {upload.preview.map((row, r) => (
                <IndexTableRow key={r}>
                  {upload.headers.map((h, c) => (
                    <td key={h}>{row[c] ?? ''}</td>
                  ))}
                </IndexTableRow>
              ))}
            </IndexTable>
          </div>
        )}
      </Card>
      <div className="import-wizard__nav">
        <Button onClick={onBack}>{t('import.back')}</Button>
        <Button variant="primary" disabled={!hasIdentifier || duplicated.length > 0} onClick={onNext}>
          {t('import.next')}
        </Button>
      </div>
    </>
  );
}

/** Step 3: what the tier column means. */
function TierStep({ tierMapped, rule, onChange, onBack, onNext }: { tierMapped: boolean; rule: ImportTierRule; onChange: (r: ImportTierRule) => void; onBack: () => void; onNext: () => void }) {
  const t = useT();
  return (
    <>
      <Card title={t('import.tier.title')}>
        <fieldset className="import-wizard__choices">
          <legend className="visually-hidden">{t('import.tier.title')}</legend>
          <label className="import-wizard__choice">
            <input type="radio" name="tier-rule" checked={rule === 'from_file'} onChange={() => onChange('from_file')} disabled={!tierMapped} />
            <span>
              <strong>{t('import.tier.fromFile')}</strong>
              <span className="text-subdued">{t(tierMapped ? 'import.tier.fromFileHelp' : 'import.tier.noColumn')}</span>
            </span>
          </label>
          <label className="import-wizard__choice">
            <input type="radio" name="tier-rule" checked={rule === 'ignore' || !tierMapped} onChange={() => onChange('ignore')} />
            <span>
              <strong>{t('import.tier.ignore')}</strong>
              <span className="text-subdued">{t('import.tier.ignoreHelp')}</span>
            </span>
          </label>
        </fieldset>
      </Card>
      <div className="import-wizard__nav">
        <Button onClick={onBack}>{t('import.back')}</Button>
        <Button variant="primary" onClick={onNext}>
          {t('import.next')}
        </Button>
      </div>
    </>
  );
}

/** Step 4: a summary and the start button. */
function ReadyStep({ upload, mapping, rule, onBack, onStarted }: { upload: UploadedCustomerImport; mapping: Record<string, ImportField | 'ignore'>; rule: ImportTierRule; onBack: () => void; onStarted: (i: CustomerImport) => void }) {
  const t = useT();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const mapped = Object.entries(mapping).filter(([, f]) => f !== 'ignore') as [string, ImportField][];
  const start = async () => {
    setBusy(true);
    setError(undefined);
    try {
      onStarted(await importApi.start(upload.id, mapping, rule));
    } catch (e) {
      setError(e);
      setBusy(false);
    }
  };
  return (
    <>
      <Card title={t('import.ready.title')}>
        {error !== undefined && <ErrorBanner error={error} title={t('import.failed')} />}
        <dl className="details-list">
          <div>
            <dt>{t('import.ready.file')}</dt>
            <dd>{upload.fileName}</dd>
          </div>
          <div>
            <dt>{t('import.ready.rows')}</dt>
            <dd>{upload.totalRows.toLocaleString()}</dd>
          </div>
          <div>
            <dt>{t('import.ready.columns')}</dt>
            <dd>{mapped.map(([h, f]) => `${h} → ${t(fieldLabels[f])}`).join(', ')}</dd>
          </div>
          <div>
            <dt>{t('import.tier.title')}</dt>
            <dd>{t(rule === 'from_file' ? 'import.tier.fromFile' : 'import.tier.ignore')}</dd>
          </div>
        </dl>
        <p className="text-subdued">{t('import.ready.help')}</p>
      </Card>
      <div className="import-wizard__nav">
        <Button onClick={onBack} disabled={busy}>
          {t('import.back')}
        </Button>
        <Button variant="primary" loading={busy} onClick={() => void start()}>
          {t('import.ready.start')}
        </Button>
      </div>
    </>
  );
}

/** Steps 5 and 6: the progress bar while it runs (polled every second), then the counts. */
function ProgressStep({ item, onNewImport }: { item: CustomerImport; onNewImport: () => void }) {
  const t = useT();
  const toast = useToast();
  const done = item.status === 'completed' || item.status === 'failed';
  const max = Math.max(item.totalRows, item.processedRows, 1);
  const download = async () => {
    try {
      await importApi.downloadErrors(item);
    } catch {
      toast(t('import.errorsFailed'), 'error');
    }
  };
  return (
    <Card title={t(done ? (item.status === 'completed' ? 'import.done.title' : 'import.failed') : 'import.progress.title')}>
      {item.status === 'failed' && <Banner tone="critical" title={item.error ?? t('import.failed')} />}
      {!done && (
        <div className="import-progress">
          <progress max={max} value={item.processedRows} aria-label={t('import.progress.title')} />
          <p>{t('import.progress.rows', { processed: item.processedRows.toLocaleString(), total: item.totalRows.toLocaleString() })}</p>
          <p className="text-subdued">{t('import.progress.background')}</p>
        </div>
      )}
      <dl className="details-list" aria-live="polite">
        <div>
          <dt>{t('import.done.imported')}</dt>
          <dd data-testid="import-imported">{item.importedRows.toLocaleString()}</dd>
        </div>
        <div>
          <dt>{t('import.done.failed')}</dt>
          <dd data-testid="import-failed">{item.failedRows.toLocaleString()}</dd>
        </div>
        <div>
          <dt>{t('import.done.points')}</dt>
          <dd>{item.pointsAwarded.toLocaleString()}</dd>
        </div>
      </dl>
      {done && (
        <div className="import-wizard__nav">
          {item.failedRows > 0 && <Button onClick={() => void download()}>{t('import.done.downloadErrors')}</Button>}
          <Link className="btn btn--secondary" to="/customers">
            {t('import.done.toCustomers')}
          </Link>
          <Button variant="primary" onClick={onNewImport}>
            {t('import.done.another')}
          </Button>
        </div>
      )}
    </Card>
  );
}

/** The import history card (spec 002 §2 "Plus import history"), newest first. */
function History({ refreshKey, onOpen }: { refreshKey: string; onOpen: (id: string) => void }) {
  const t = useT();
  const toast = useToast();
  const history = useResource(`imports:${refreshKey}`, () => importApi.history(), { keepData: true });
  return (
    <Card title={t('import.history.title')} flush>
      {history.error !== undefined ? (
        <Banner tone="critical" title={t('import.history.failed')} action={{ label: t('common.reload'), onAction: history.reload }} />
      ) : history.data?.length === 0 ? (
        <EmptyState heading={t('import.history.empty')} />
      ) : (
        <IndexTable label={t('import.history.title')} headings={[{ title: t('import.history.file') }, { title: t('import.history.status') }, { title: t('import.done.imported'), align: 'end' }, { title: t('import.done.failed'), align: 'end' }, { title: t('import.history.date') }]}>
          {history.data === undefined
            ? Array.from({ length: 3 }, (_, r) => (
                <tr key={r} aria-hidden="true">
                  {Array.from({ length: 5 }, (_, c) => (
                    <td key={c}>
                      <span className="skeleton skeleton--line" />
                    </td>
                  ))}
                </tr>
              ))
            : history.data.map((item) => (
                <IndexTableRow key={item.id} onOpen={() => onOpen(item.id)}>
                  <td className="index-table__primary">
                    <button type="button" className="btn btn--plain" onClick={() => onOpen(item.id)}>
                      {item.fileName}
                    </button>
                  </td>
                  <td>
                    <Badge tone={statusTones[item.status]}>{t(statusLabels[item.status])}</Badge>
                  </td>
                  <td className="index-table__cell--end">{item.importedRows.toLocaleString()}</td>
                  <td className="index-table__cell--end">
                    {item.failedRows > 0 ? (
                      <button type="button" className="btn btn--plain" onClick={() => void importApi.downloadErrors(item).catch(() => toast(t('import.errorsFailed'), 'error'))}>
                        {t('import.history.failedRows', { count: item.failedRows.toLocaleString() })}
                      </button>
                    ) : (
                      '0'
                    )}
                  </td>
                  <td>
                    <time dateTime={item.createdAt}>{new Date(item.createdAt).toLocaleString()}</time>
                  </td>
                </IndexTableRow>
              ))}
        </IndexTable>
      )}
    </Card>
  );
}

/**
 * `/customers/import` (spec 002 §2 Migration wizard, §4): upload → map columns → tier rule → ready →
 * migrating (a progress bar polling the job) → completed (counts, the error CSV); the import history
 * below. The import in hand is `?id=` in the address, so a reload comes back to it.
 */
export function CustomerImportPage() {
  const t = useT();
  const [params, setParams] = useSearchParams();
  const id = params.get('id');
  const [step, setStep] = useState<Step>('upload');
  const [upload, setUpload] = useState<UploadedCustomerImport | null>(null);
  const [mapping, setMapping] = useState<Record<string, ImportField | 'ignore'>>({});
  const [rule, setRule] = useState<ImportTierRule>('from_file');
  const [item, setItem] = useState<CustomerImport | null>(null);
  const [loadError, setLoadError] = useState<unknown>();
  const [historyKey, setHistoryKey] = useState('0');
  const polling = useRef<number | null>(null);

  // Opening an import (a reload, or a row of the history): its step follows its status.
  useEffect(() => {
    if (!id) {
      setStep('upload');
      setUpload(null);
      setItem(null);
      return;
    }
    if (upload?.id === id || item?.id === id) return;
    let current = true;
    setLoadError(undefined);
    importApi.preview(id).then(
      (found) => {
        if (!current) return;
        if (found.status === 'uploaded') {
          setUpload(found);
          setMapping(found.guessedMapping);
          setStep('map');
        } else {
          setItem(found);
          setStep(found.status === 'completed' || found.status === 'failed' ? 'completed' : 'migrating');
        }
      },
      (e: unknown) => current && setLoadError(e),
    );
    return () => {
      current = false;
    };
  }, [id]);

  // While it runs: ask for progress every second.
  useEffect(() => {
    if (step !== 'migrating' || !item) return;
    const tick = async () => {
      try {
        const next = await importApi.get(item.id);
        setItem(next);
        if (next.status === 'completed' || next.status === 'failed') {
          setStep('completed');
          setHistoryKey(String(Date.now()));
          return;
        }
      } catch {
        // a missed poll: the next one tries again
      }
      polling.current = window.setTimeout(() => void tick(), 1000);
    };
    polling.current = window.setTimeout(() => void tick(), 500);
    return () => {
      if (polling.current !== null) window.clearTimeout(polling.current);
    };
  }, [step, item?.id]);

  const restart = () => {
    setUpload(null);
    setItem(null);
    setStep('upload');
    setParams({});
  };
  const tierMapped = Object.values(mapping).includes('tier');

  return (
    <Page title={t('import.title')} backTo="/customers" backLabel={t('import.backToCustomers')}>
      <Steps current={step} />
      {loadError !== undefined ? (
        <Banner tone="critical" title={loadError instanceof ApiError && loadError.status === 404 ? t('import.notFound') : t('import.loadFailed')} action={{ label: t('import.done.another'), onAction: restart }} />
      ) : id && !upload && !item ? (
        <Card>
          <span className="skeleton skeleton--line" />
        </Card>
      ) : step === 'upload' ? (
        <UploadStep
          onUploaded={(u) => {
            setUpload(u);
            setMapping(u.guessedMapping);
            setRule('from_file');
            setStep('map');
            setParams({ id: u.id });
            setHistoryKey(String(Date.now()));
          }}
        />
      ) : step === 'map' && upload ? (
        <MapStep upload={upload} mapping={mapping} onChange={setMapping} onBack={restart} onNext={() => setStep('tier')} />
      ) : step === 'tier' && upload ? (
        <TierStep tierMapped={tierMapped} rule={tierMapped ? rule : 'ignore'} onChange={setRule} onBack={() => setStep('map')} onNext={() => setStep('ready')} />
      ) : step === 'ready' && upload ? (
        <ReadyStep
          upload={upload}
          mapping={mapping}
          rule={tierMapped ? rule : 'ignore'}
          onBack={() => setStep('tier')}
          onStarted={(started) => {
            setItem(started);
            setStep('migrating');
            setHistoryKey(String(Date.now()));
          }}
        />
      ) : item ? (
        <ProgressStep item={item} onNewImport={restart} />
      ) : null}
      <History refreshKey={historyKey} onOpen={(open) => setParams({ id: open })} />
    </Page>
  );
}
