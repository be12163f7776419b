import { Link } from 'react-router-dom';
import { WRITE_ONLY_MASK } from '../../../../engine/write-only';
import { useResource } from '../../../api/use-resource';
import { Badge, type BadgeTone } from '../../../components/Badge';
import { Card } from '../../../components/Card';
import { SkeletonText } from '../../../components/Skeleton';
import { useT, type MessageKey } from '../../../i18n';
import { DocumentEditorPage } from '../../../pages/DocumentEditor';
import { GOOGLE_WALLET_KIND, WALLET_PASS_KIND, walletApi, type GoogleWalletState } from './api';
import { WalletPassPreview } from './WalletPassCard';

/** The way from the designer to the Google Wallet settings, and the word on Apple Wallet. */
function WalletLinksCard() {
  const t = useT();
  return (
    <Card title={t('wallet.google.title')}>
      <p>{t('wallet.google.linkBody')}</p>
      <ul className="wallet-links">
        <li>
          <Link to="/customers/wallet/google">{t('wallet.google.link')}</Link>
        </li>
      </ul>
      <p className="muted">{t('wallet.apple.note')}</p>
    </Card>
  );
}

/**
 * `/customers/wallet` (spec 000 §2; spec 002 §2 "Wallet pass designer", §3 "Wallet pass"): the pass
 * design form rendered from `membership.wallet_pass`, one per shop, with the pass drawn beside it
 * from the unsaved data and a sample customer on every change.
 */
export function WalletPassPage() {
  const t = useT();
  return (
    <DocumentEditorPage
      source={{ mode: 'singleton', kind: WALLET_PASS_KIND }}
      backTo="/customers"
      backLabel={t('customers.back')}
      title={() => t('wallet.design.title')}
      aside={(data) => (
        <>
          <WalletPassPreview design={data} />
          <WalletLinksCard />
        </>
      )}
    />
  );
}

const stateLabels: Record<GoogleWalletState['state'], MessageKey> = {
  connected: 'wallet.connection.connected',
  not_connected: 'wallet.connection.notConnected',
  invalid_key: 'wallet.connection.invalidKey',
};
const stateTones: Record<GoogleWalletState['state'], BadgeTone> = { connected: 'success', not_connected: 'neutral', invalid_key: 'critical' };

/**
 * The saved connection's state (`GET /api/wallet/google`); never the key. Read again when the form's
 * key turns into the mask, that is once a new key is saved.
 */
function ConnectionCard({ saved }: { saved: boolean }) {
  const t = useT();
  const state = useResource(`wallet-google:${saved}`, () => walletApi.googleState());
  const s = state.data;
  return (
    <Card title={t('wallet.connection.title')} actions={s ? <Badge tone={stateTones[s.state]}>{t(stateLabels[s.state])}</Badge> : null}>
      {state.error !== undefined ? (
        <p className="text-subdued">{t('wallet.connection.failed')}</p>
      ) : !s ? (
        <SkeletonText lines={2} />
      ) : (
        <>
          {s.serviceAccountEmail && <p>{t('wallet.connection.account', { email: s.serviceAccountEmail })}</p>}
          {s.state === 'invalid_key' && <p>{t('wallet.connection.invalidHelp')}</p>}
          <p className="muted">{t('wallet.connection.help')}</p>
        </>
      )}
      <p>
        <Link to="/customers/wallet">{t('wallet.design.link')}</Link>
      </p>
    </Card>
  );
}

/**
 * `/customers/wallet/google` (spec 000 §2; spec 002 §1 wallet passes integration): the Google
 * Wallet settings form rendered from `integration.google_wallet` (issuer id; the service account
 * key written only, answered masked), the connection state beside it and the way back to the
 * pass designer.
 */
export function GoogleWalletPage() {
  const t = useT();
  return (
    <DocumentEditorPage
      source={{ mode: 'singleton', kind: GOOGLE_WALLET_KIND }}
      backTo="/customers/wallet"
      backLabel={t('wallet.design.title')}
      title={() => t('wallet.google.title')}
      aside={(data) => <ConnectionCard saved={data.secretKey === WRITE_ONLY_MASK} />}
    />
  );
}
