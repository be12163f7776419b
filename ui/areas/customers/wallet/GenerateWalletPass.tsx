import { useEffect, useState } from 'react';
import { ApiError } from '../../../api/client';
import { Banner } from '../../../components/Banner';
import { Button, ButtonAnchor, ButtonLink } from '../../../components/Button';
import { Modal } from '../../../components/Modal';
import { SkeletonText } from '../../../components/Skeleton';
import { useT, type MessageKey } from '../../../i18n';
import { walletApi, type GeneratedWalletPass } from './api';
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

  const code = error instanceof ApiError ? error.code : '';
  const fixAt = code === 'wallet_pass_not_designed' || code === 'wallet_pass_logo_missing' ? '/customers/wallet' : code === 'google_wallet_key_invalid' ? '/customers/wallet/google' : null;
  return (
    <>
      <Button onClick={() => void generate()}>{t('wallet.generate.action')}</Button>
      <Modal open={open} title={t('wallet.generate.title')} onClose={() => setOpen(false)} secondaryLabel={t('wallet.generate.close')}>
        {error ? (
          <Banner tone="critical" title={t('wallet.generate.failed')}>
            <p>{errorKeys[code] ? t(errorKeys[code]!) : error.message}</p>
            {fixAt && (
              <ButtonLink to={fixAt} variant="plain">
                {t(fixAt === '/customers/wallet' ? 'wallet.design.link' : 'wallet.google.link')}
              </ButtonLink>
            )}
          </Banner>
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
