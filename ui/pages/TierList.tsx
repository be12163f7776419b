import { useAtomValue } from 'jotai';
import { Link } from 'react-router-dom';
import type { StoredDocument } from '../../engine/types';
import { Badge } from '../components/Badge';
import { ButtonLink } from '../components/Button';
import { tierGives } from '../areas/tiers/tier-summary';
import { t, useLanguage, useT } from '../i18n';
import { formatMoney, formatNumber } from '../i18n/formats';
import { currencyAtom } from '../state/session';
import { documentTitle } from './document-title';
import { DocumentList, type DocumentColumn } from './DocumentList';
import { paths } from './program-paths';

export const TIER_KIND = 'tier.tier';

/** A tier's entry requirement as a number (schema: `minimum: 0`); a missing one counts as 0. */
export function entryRequirement(doc: StoredDocument): number {
  const value = doc.data.entryRequirement;
  return typeof value === 'number' ? value : 0;
}

/** Lowest requirement first, so the base tier leads; compared as numbers, never as text. */
export const byEntryRequirement = (a: StoredDocument, b: StoredDocument) => entryRequirement(a) - entryRequirement(b);

/** "1,000 points earned", "$500.00 spent", "5 orders", by the tier's entry method; numbers and amounts in the admin's language. */
function requirementText(doc: StoredDocument, currency: string, language: string): string {
  const value = entryRequirement(doc);
  switch (doc.data.entryMethod) {
    case 'amount_spent':
      return t('tiers.requirement.amount_spent', { value: formatMoney(value, currency, language) });
    case 'number_of_orders':
      return t('tiers.requirement.number_of_orders', { value: formatNumber(value, language) });
    default:
      return t('tiers.requirement.points_earned', { value: formatNumber(value, language) });
  }
}

const tierTitle = (doc: StoredDocument) => documentTitle(doc.data, t('tiers.untitled'));

/** The VIP tiers (`tier.tier`), on /programs?type=tier and the VIP Tiers screen's Tiers tab. */
export function TierList() {
  const t = useT();
  const currency = useAtomValue(currencyAtom);
  const language = useLanguage();
  const columns: DocumentColumn[] = [
    { title: t('tiers.col.requirement'), render: (doc) => requirementText(doc, currency, language) },
    // What the tier gives beside what it asks: with the requirement, the tier's one-line summary.
    { title: t('tiers.summary.column'), render: (doc) => <span className="index-table__wrap">{tierGives(doc.data, language) || '—'}</span> },
    {
      title: t('tiers.col.color'),
      render: (doc) => {
        const color = typeof doc.data.color === 'string' ? doc.data.color : '';
        return (
          <span className="swatch">
            <span className="swatch__chip" style={{ background: color || 'transparent' }} aria-hidden="true" />
            {color}
          </span>
        );
      },
    },
  ];
  return (
    <DocumentList
      kind={TIER_KIND}
      label={t('tiers.title')}
      nameHeading={t('tiers.col.name')}
      titleOf={tierTitle}
      nameSuffix={(doc) => (entryRequirement(doc) === 0 ? <Badge tone="info">{t('tiers.base')}</Badge> : null)}
      editPath={(doc) => paths.tier(doc.id)}
      columns={columns}
      sort={byEntryRequirement}
      createAction={
        <ButtonLink variant="primary" to={paths.tierCreate}>
          {t('tiers.create')}
        </ButtonLink>
      }
      empty={{ heading: t('tiers.empty.heading'), body: t('tiers.empty.body') }}
      deletedMessage={t('tiers.deleted')}
      rowActions={(doc) => (
        <Link className="btn btn--plain" to={paths.tierReward(doc.id)} aria-label={t('tiers.rewardsLabel', { title: tierTitle(doc) })}>
          {t('tiers.rewards')}
        </Link>
      )}
    />
  );
}
