import { useEffect, useState, type ReactNode } from 'react';
import { ApiError } from '../../../api/client';
import { Banner } from '../../../components/Banner';
import { Button, ButtonAnchor, ButtonLink } from '../../../components/Button';
import { Modal } from '../../../components/Modal';
import { SkeletonText } from '../../../components/Skeleton';
import { useT, type MessageKey } from '../../../i18n';
import { walletApi, type BulkWalletPass, type GeneratedWalletPass } from './api';
import { WalletPassCard } from './WalletPassCard';

/** The server's refusals in the admin's words (server/routes/wallet.ts); others show the server's message. */
const errorKeys: Record<string, MessageKey> = {
  wallet_pass_not_designed: 'wallet.error.notDesigned',
  wallet_pass_logo_missing: 'wallet.error.logoMissing',
  google_wallet_key_invalid: 'wallet.error.keyInvalid',
  not_found: 'wallet.error.notFound',
};

/** A blob: URL for the generated file, revoked when the file changes or the modal closes. */
function useFileUrl(file: GeneratedWalletPass['file']): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!file) return setUrl(null);
    const bytes = Uint8Array.from(atob(file.base64), (ch) => ch.charCodeAt(0));
    const next = URL.createObjectURL(new Blob([bytes], { type: file.mediaType }));
    setUrl(next);
    return () => URL.revokeObjectURL(next);
  }, [file]);
  return url;
}

/** A refusal of the server in the admin's words, with a link to where it is fixed (the designer or the Google Wallet settings). */
function WalletErrorBanner({ error }: { error: Error }) {
  const t = useT();
  const code = error instanceof ApiError ? error.code : '';
  const fixAt = code === 'wallet_pass_not_designed' || code === 'wallet_pass_logo_missing' ? '/customers/wallet' : code === 'google_wallet_key_invalid' ? '/customers/wallet/google' : null;
  return (
    <Banner tone="critical" title={t('wallet.generate.failed')}>
      <p>{errorKeys[code] ? t(errorKeys[code]!) : error.message}</p>
      {fixAt && (
        <ButtonLink to={fixAt} variant="plain">
          {t(fixAt === '/customers/wallet' ? 'wallet.design.link' : 'wallet.google.link')}
        </ButtonLink>
      )}
    </Banner>
  );
}

/**
 * The customer profile's "Generate wallet pass" action (spec 002 §2 "Generate pass wallet"): asks
 * the server for the customer's pass (`POST /api/customers/:id/wallet-pass`) and shows it drawn as
 * the customer will see it, with "Save to Google Wallet" when Google Wallet is connected or a
 * download of the pass image otherwise. A refusal (no design yet, no logo, a bad key) says what to
 * do and links to the designer or the Google Wallet settings.
 */
export function GenerateWalletPassAction({ customerId }: { customerId: string }) {
  const t = useT();
  const [open, setOpen] = useState(false);
  const [result, setResult] = useState<GeneratedWalletPass | null>(null);
  const [error, setError] = useState<ApiError | Error | null>(null);
  const fileUrl = useFileUrl(result?.file ?? null);

  async function generate() {
    setOpen(true);
    setResult(null);
    setError(null);
    try {
      setResult(await walletApi.generate(customerId));
    } catch (e) {
      setError(e instanceof Error ? e : new Error(String(e)));
    }
  }

  return (
    <>
      <Button onClick={() => void generate()}>{t('wallet.generate.action')}</Button>
      <Modal open={open} title={t('wallet.generate.title')} onClose={() => setOpen(false)} secondaryLabel={t('wallet.generate.close')}>
        {error ? (
          <WalletErrorBanner error={error} />
        ) : !result ? (
          <div role="status" aria-label={t('wallet.generate.loading')}>
            <SkeletonText lines={4} />
          </div>
        ) : (
          <div className="wallet-result">
            <WalletPassCard pass={result.pass} />
            <div className="wallet-result__actions">
              {result.saveUrl && (
                <ButtonAnchor href={result.saveUrl} target="_blank" rel="noopener noreferrer" variant="primary">
                  {t('wallet.generate.save')}
                </ButtonAnchor>
              )}
              {result.file && fileUrl && (
                <ButtonAnchor href={fileUrl} download={result.file.filename} variant={result.saveUrl ? 'secondary' : 'primary'}>
                  {t('wallet.generate.download')}
                </ButtonAnchor>
              )}
            </div>
            {result.provider === 'local' && <p className="muted">{t('wallet.generate.localNote')}</p>}
          </div>
        )}
      </Modal>
    </>
  );
}

/** A CSV cell: quoted, and a leading `=`, `+`, `-`, `@`, tab or carriage return made inert (formula injection). */
function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return `"${safe.replace(/"/g, '""')}"`;
}

/** One customer's line of the bulk result: who, and their pass's link or download. */
function BulkPassLine({ label, entry }: { label: string; entry: BulkWalletPass }) {
  const t = useT();
  const fileUrl = useFileUrl(entry.answer?.file ?? null);
  let action: ReactNode;
  if (!entry.answer) action = <span className="muted">{t('wallet.bulk.notFound')}</span>;
  else if (entry.answer.saveUrl) {
    action = (
      <a href={entry.answer.saveUrl} target="_blank" rel="noopener noreferrer">
        {t('wallet.generate.save')}
      </a>
    );
  } else if (entry.answer.file && fileUrl) {
    action = (
      <a href={fileUrl} download={entry.answer.file.filename}>
        {t('wallet.generate.download')}
      </a>
    );
  }
  return (
    <li className="wallet-bulk__line">
      <span className="wallet-bulk__who">{label}</span>
      {action}
    </li>
  );
}

/**
 * The customers list's "Generate pass wallet" (spec 002 §2 list actions) for the selected customers
 * (`POST /api/customers/wallet-passes`): one line per customer with their "Save to Google Wallet"
 * link, or their pass image to download without Google Wallet; with Google Wallet, the links as a
 * CSV too (e-mail, name, link), to send from the merchant's e-mail tool. `customers` are the
 * selected rows: id and how the list names them.
 */
export function BulkWalletPassesAction({ customers }: { customers: readonly { id: string; label: string; email: string }[] }) {
  const t = useT();
  const [open, setOpen] = useState(false);
  const [result, setResult] = useState<BulkWalletPass[] | null>(null);
  const [error, setError] = useState<Error | null>(null);
  const [csvUrl, setCsvUrl] = useState<string | null>(null);

  useEffect(() => {
    const links = result?.filter((entry) => entry.answer?.saveUrl) ?? [];
    if (links.length === 0) return setCsvUrl(null);
    const byId = new Map(customers.map((c) => [c.id, c]));
    const lines = [['Email', 'Name', 'Google Wallet link'], ...links.map((entry) => [byId.get(entry.customerId)?.email ?? '', byId.get(entry.customerId)?.label ?? entry.customerId, entry.answer!.saveUrl!])];
    const next = URL.createObjectURL(new Blob([`\ufeff${lines.map((cells) => cells.map(csvCell).join(',')).join('\r\n')}\r\n`], { type: 'text/csv;charset=utf-8' }));
    setCsvUrl(next);
    return () => URL.revokeObjectURL(next);
  }, [result, customers]);

  async function generate() {
    setOpen(true);
    setResult(null);
    setError(null);
    try {
      setResult(await walletApi.generateMany(customers.map((c) => c.id)));
    } catch (e) {
      setError(e instanceof Error ? e : new Error(String(e)));
    }
  }

  const labels = new Map(customers.map((c) => [c.id, c.label]));
  return (
    <>
      <Button onClick={() => void generate()}>{t('wallet.bulk.action')}</Button>
      <Modal open={open} title={customers.length === 1 ? t('wallet.bulk.titleOne') : t('wallet.bulk.title', { count: customers.length })} onClose={() => setOpen(false)} secondaryLabel={t('wallet.generate.close')}>
        {error ? (
          <WalletErrorBanner error={error} />
        ) : !result ? (
          <div role="status" aria-label={t('wallet.generate.loading')}>
            <SkeletonText lines={4} />
          </div>
        ) : (
          <div className="wallet-bulk">
            {csvUrl && (
              <div className="wallet-bulk__csv">
                <ButtonAnchor href={csvUrl} download="wallet-pass-links.csv" variant="primary">
                  {t('wallet.bulk.csv')}
                </ButtonAnchor>
                <p className="muted">{t('wallet.bulk.csvHelp')}</p>
              </div>
            )}
            <ul className="wallet-bulk__list" aria-label={t('wallet.bulk.list')}>
              {result.map((entry) => (
                <BulkPassLine key={entry.customerId} label={labels.get(entry.customerId) ?? entry.customerId} entry={entry} />
              ))}
            </ul>
            {result.some((entry) => entry.answer?.provider === 'local') && <p className="muted">{t('wallet.generate.localNote')}</p>}
          </div>
        )}
      </Modal>
    </>
  );
}
