import type { CSSProperties } from 'react';
import type { JsonObject } from '../../../../engine/types';
import { fillWalletPass, type FilledWalletPass, type WalletCustomerFacts, type WalletPassDesign } from '../../../../engine/wallet-pass';
import { Card } from '../../../components/Card';
import { useT } from '../../../i18n';
import './wallet.css';

/**
 * The customer the designer's preview fills the pass with (the values are data, not admin texts:
 * a shopper's pass shows them as they are).
 */
export const SAMPLE_CUSTOMER: WalletCustomerFacts = {
  id: '1001',
  firstName: 'Alex',
  lastName: 'Morgan',
  email: 'alex@example.com',
  phone: '+1 555 010 2030',
  birthday: '07/21',
  points: 1250,
  pendingPoints: 80,
  lifetimePoints: 3400,
  tierName: 'Gold',
  memberSince: '2024-03-04T15:00:00.000Z',
  referralCode: 'ALEX2024',
};

/**
 * A filled wallet pass drawn in HTML/CSS (spec 002 §3 "Wallet pass: header, rows with left and
 * right labels and values"; §5 icon 30 × 30 px): the header with the logo and title, then each row's
 * label over its value on the left and on the right, in the design's colors. At most 340 px wide,
 * narrower on a phone.
 */
export function WalletPassCard({ pass }: { pass: FilledWalletPass }) {
  const t = useT();
  const style = { '--pass-bg': pass.colors.background, '--pass-fg': pass.colors.foreground, '--pass-label': pass.colors.label } as CSSProperties;
  return (
    <figure className="wallet-pass" style={style} aria-label={t('wallet.pass.label', { title: pass.header.title })}>
      <header className="wallet-pass__header">
        {pass.header.logo ? <img className="wallet-pass__logo" src={pass.header.logo} alt="" width={30} height={30} /> : <span className="wallet-pass__logo wallet-pass__logo--empty" aria-hidden="true" />}
        <span className="wallet-pass__title">{pass.header.title}</span>
      </header>
      {pass.rows.length === 0 ? (
        <p className="wallet-pass__empty">{t('wallet.pass.empty')}</p>
      ) : (
        <dl className="wallet-pass__rows">
          {pass.rows.map((row, i) => (
            <div key={i} className="wallet-pass__row" data-testid="wallet-pass-row">
              {(['left', 'right'] as const).map((side) => (
                <div key={side} className={`wallet-pass__cell wallet-pass__cell--${side}`}>
                  <dt>{row[side].label}</dt>
                  <dd>{row[side].value}</dd>
                </div>
              ))}
            </div>
          ))}
        </dl>
      )}
    </figure>
  );
}

/** The designer's live preview: the unsaved design filled with SAMPLE_CUSTOMER, redrawn on every change. */
export function WalletPassPreview({ design }: { design: JsonObject }) {
  const t = useT();
  const pass = fillWalletPass(design as unknown as Partial<WalletPassDesign>, SAMPLE_CUSTOMER, { locale: 'en-US', timeZone: 'UTC' });
  return (
    <Card title={t('wallet.preview.title')}>
      <div className="wallet-pass-stage">
        <WalletPassCard pass={pass} />
      </div>
      <p className="muted">{t('wallet.preview.sample')}</p>
    </Card>
  );
}
