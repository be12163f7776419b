import { useState } from 'react';
import { currencyExponent } from '../../../engine/money';
import type { JsonObject } from '../../../engine/types';
import { ApiError } from '../../api/client';
import { versionsApi, type ProgramPreview } from '../../api/endpoints';
import { Banner } from '../../components/Banner';
import { Button } from '../../components/Button';
import { Card } from '../../components/Card';
import { Select } from '../../components/Select';
import { SkeletonText } from '../../components/Skeleton';
import { useT } from '../../i18n';

export interface PreviewPanelProps {
  /** The place-order program's data as edited, unsaved. */
  data: JsonObject;
  /** The saved program's id when editing (its saved version is replaced by the draft). */
  programId?: string;
}

const WINDOWS = [30, 90] as const;

/**
 * "What would this change have done?" (issue 15): on Preview, replays the shop's stored orders of
 * 30 or 90 days with the draft beside the saved programs (`POST /api/programs/simulate`) and shows
 * the points before and after, the customers affected, the cost at the shop's exchange rate and
 * the orders whose points change with both explanations. Never runs on its own: the merchant asks.
 */
export function PreviewPanel({ data, programId }: PreviewPanelProps) {
  const t = useT();
  const [days, setDays] = useState<30 | 90>(30);
  const [result, setResult] = useState<ProgramPreview | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [running, setRunning] = useState(false);

  async function run() {
    setRunning(true);
    setError(null);
    try {
      setResult(await versionsApi.simulate(data, days, programId));
    } catch (e) {
      setResult(null);
      const details = e instanceof ApiError ? e.details.map((d) => d.message) : [];
      setError([e instanceof Error ? e.message : String(e), ...details].filter(Boolean).join(' — '));
    } finally {
      setRunning(false);
    }
  }

  const number = (n: number) => n.toLocaleString();
  const signed = (n: number) => (n > 0 ? `+${n.toLocaleString()}` : n < 0 ? `−${Math.abs(n).toLocaleString()}` : '0');
  const money = (minor: number, currency: string) => new Intl.NumberFormat(undefined, { style: 'currency', currency }).format(minor / 10 ** currencyExponent(currency));

  return (
    <Card title={t('versions.preview.title')}>
      <div className="card__section preview-panel" aria-busy={running || undefined}>
        <p className="text-subdued">{t('versions.preview.intro')}</p>
        <div className="preview-panel__controls">
          <Select
            label={t('versions.preview.window')}
            value={days}
            options={WINDOWS.map((d) => ({ value: d, label: t('versions.preview.days', { days: d }) }))}
            onChange={(value) => setDays(value === '90' ? 90 : 30)}
            disabled={running}
          />
          <Button variant="primary" loading={running} onClick={() => void run()}>
            {t('versions.preview.run')}
          </Button>
        </div>
        {running && !result && <SkeletonText lines={4} />}
        {error && <Banner tone="critical" title={t('versions.preview.failed')}>{error}</Banner>}
        {result && result.ordersReplayed === 0 && <p className="text-subdued">{t('versions.preview.empty')}</p>}
        {result && result.ordersReplayed > 0 && (
          <div className="preview-panel__result" data-testid="preview-result">
            <dl className="preview-panel__figures">
              <div>
                <dt>{t('versions.preview.orders')}</dt>
                <dd data-testid="preview-orders">{number(result.ordersReplayed)}</dd>
              </div>
              <div>
                <dt>{t('versions.preview.pointsBefore')}</dt>
                <dd data-testid="preview-before">{number(result.pointsBefore)}</dd>
              </div>
              <div>
                <dt>{t('versions.preview.pointsAfter')}</dt>
                <dd data-testid="preview-after">{number(result.pointsAfter)}</dd>
              </div>
              <div>
                <dt>{t('versions.preview.delta')}</dt>
                <dd data-testid="preview-delta">{signed(result.pointsDelta)}</dd>
              </div>
              <div>
                <dt>{t('versions.preview.changed')}</dt>
                <dd>{number(result.ordersChanged)}</dd>
              </div>
              <div>
                <dt>{t('versions.preview.customers')}</dt>
                <dd data-testid="preview-customers">{number(result.customersAffected)}</dd>
              </div>
              <div>
                <dt>{t('versions.preview.cost', { rate: result.exchangeRate })}</dt>
                <dd data-testid="preview-cost">
                  {money(result.costBeforeMinor, result.currency)} → {money(result.costAfterMinor, result.currency)}
                </dd>
              </div>
            </dl>
            <p className="text-subdued">{t('versions.preview.awarded', { points: number(result.awardedPoints) })}</p>
            {result.changedOrders.length > 0 && (
              <>
                <h3 className="preview-panel__heading">{t('versions.preview.changedOrders')}</h3>
                <ul className="preview-panel__orders">
                  {result.changedOrders.map((o) => (
                    <li key={o.orderId} className="preview-panel__order">
                      <strong>{t('versions.preview.orderPoints', { order: o.orderName || o.orderId, before: number(o.before.points), after: number(o.after.points) })}</strong>
                      <div className="preview-panel__explain">
                        <div>
                          <span className="text-subdued">{t('versions.preview.before')}</span>
                          <ul>
                            {o.before.decisions.map((d) => (
                              <li key={d.programId}>{d.message}</li>
                            ))}
                          </ul>
                        </div>
                        <div>
                          <span className="text-subdued">{t('versions.preview.after')}</span>
                          <ul>
                            {o.after.decisions.map((d) => (
                              <li key={d.programId}>{d.message}</li>
                            ))}
                          </ul>
                        </div>
                      </div>
                    </li>
                  ))}
                </ul>
              </>
            )}
          </div>
        )}
      </div>
    </Card>
  );
}
