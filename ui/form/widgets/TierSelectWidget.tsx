import type { WidgetProps } from '@rjsf/utils';
import { ariaDescribedByIds } from '@rjsf/utils';
import type { ReactNode } from 'react';
import { Link, useInRouterContext } from 'react-router-dom';
import { widgetApi } from '../../api/endpoints';
import { useResource } from '../../api/use-resource';
import { Button } from '../../components/Button';
import { useT } from '../../i18n';
import { labelId } from '../templates/FieldTemplate';

/** Where a merchant creates the first tier. */
export const CREATE_TIER_PATH = '/programs/tier/create';

/** A router link inside the app; a plain link where the form renders without a router. */
function AppLink({ to, children }: { to: string; children: ReactNode }) {
  return useInRouterContext() ? <Link to={to}>{children}</Link> : <a href={to}>{children}</a>;
}

async function loadTiers() {
  const docs = await widgetApi.tiers();
  return docs
    .map((doc) => ({ id: doc.id, name: doc.data.name, color: doc.data.color, requirement: doc.data.entryRequirement }))
    .sort((a, b) => (a.requirement ?? 0) - (b.requirement ?? 0));
}

/**
 * Several of the shop's VIP tiers (`"ui:widget": "tierSelect"` on an array of tier document ids),
 * listed lowest entry requirement first. Ids of tiers deleted since stay listed, so they can be
 * unticked.
 */
export function TierSelectWidget({ id, value, disabled, readonly, onChange }: WidgetProps) {
  const t = useT();
  const tiers = useResource('tier.tier', loadTiers);
  const selected = Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
  const off = disabled || readonly;

  if (tiers.loading && !tiers.data) {
    return (
      <p id={id} className="form-field__help" role="status">
        {t('form.tiers.loading')}
      </p>
    );
  }
  if (tiers.error || !tiers.data) {
    return (
      <div id={id} className="tier-select__state">
        <p className="form-field__error">{t('form.loadFailed')}</p>
        <Button variant="plain" onClick={tiers.reload}>{t('common.reload')}</Button>
      </div>
    );
  }
  const known = new Set(tiers.data.map((tier) => tier.id));
  const options = [
    ...tiers.data,
    ...selected.filter((tierId) => !known.has(tierId)).map((tierId) => ({ id: tierId, name: t('form.tiers.unknown'), color: undefined as string | undefined})),
  ];
  if (options.length === 0) {
    return (
      <div id={id} className="tier-select__state tier-select__state--empty">
        <p>{t('form.tiers.empty')}</p>
        <AppLink to={CREATE_TIER_PATH}>{t('form.tiers.create')}</AppLink>
      </div>
    );
  }

  const toggle = (tierId: string, on: boolean) =>
    onChange(on ? [...selected, tierId] : selected.filter((other) => other !== tierId));

  return (
    <div id={id} className="tier-select" role="group" aria-labelledby={labelId(id)} aria-describedby={ariaDescribedByIds(id)}>
      {options.map((tier) => (
        <label key={tier.id} className="tier-select__option">
          <input type="checkbox" checked={selected.includes(tier.id)} disabled={off} onChange={(event) => toggle(tier.id, event.target.checked)} />
          <span className="tier-select__swatch" style={tier.color ? { background: tier.color } : undefined} aria-hidden="true" />
          <span className="tier-select__name">{tier.name}</span>
        </label>
      ))}
    </div>
  );
}
