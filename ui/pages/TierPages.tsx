import { useAtomValue } from 'jotai';
import { useParams } from 'react-router-dom';
import type { JsonObject } from '../../engine/types';
import { tierSummary } from '../areas/tiers/tier-summary';
import { ButtonLink } from '../components/Button';
import { useLanguage, useT } from '../i18n';
import { currencyAtom } from '../state/session';
import { documentTitle } from './document-title';
import { DocumentEditorPage } from './DocumentEditor';
import { paths } from './program-paths';
import { TIER_KIND } from './TierList';

const tierList = paths.list('tier');

/** The tier editors' one-line summary ("From 1,000 points: 1.5× points on orders"), following the form as it changes. */
function useTierSummary(): (data: JsonObject) => string {
  const currency = useAtomValue(currencyAtom);
  const language = useLanguage();
  return (data) => tierSummary(data, currency, language);
}

/** `/programs/tier/create`: a new VIP tier; Save creates it and opens its page. */
export function NewTierPage() {
  const t = useT();
  const summary = useTierSummary();
  return (
    <DocumentEditorPage
      source={{ mode: 'new', kind: TIER_KIND }}
      backTo={tierList}
      backLabel={t('tiers.title')}
      title={() => t('tiers.create')}
      afterCreate={(doc) => paths.tier(doc.id)}
      summary={summary}
    />
  );
}

/** `/programs/tier/:id`: a VIP tier's whole form, with a link to its rewards page. */
export function EditTierPage() {
  const t = useT();
  const summary = useTierSummary();
  const { id = '' } = useParams();
  return (
    <DocumentEditorPage
      source={{ mode: 'edit', kind: TIER_KIND, id }}
      backTo={tierList}
      backLabel={t('tiers.title')}
      deletable
      summary={summary}
      secondaryActions={({ doc }) => doc && <ButtonLink to={paths.tierReward(doc.id)}>{t('tiers.rewards')}</ButtonLink>}
    />
  );
}

/** The parts of a tier the rewards page shows (spec 002 §2 "Tier reward pages"). */
const REWARD_PROPERTIES = ['entryReward', 'perks'];

/** `/membership/tier-reward/:id`: a tier's entry reward and perks; Save sends the whole tier. */
export function TierRewardPage() {
  const t = useT();
  const summary = useTierSummary();
  const { id = '' } = useParams();
  return (
    <DocumentEditorPage
      source={{ mode: 'edit', kind: TIER_KIND, id }}
      backTo={paths.vip('tiers')}
      backLabel={t('vip.title')}
      title={({ doc, kind }) => t('tiers.rewardsTitle', { title: documentTitle(doc?.data ?? {}, kind.title) })}
      properties={REWARD_PROPERTIES}
      summary={summary}
    />
  );
}
