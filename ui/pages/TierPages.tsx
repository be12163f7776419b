import { useParams } from 'react-router-dom';
import { ButtonLink } from '../components/Button';
import { useT } from '../i18n';
import { documentTitle } from './document-title';
import { DocumentEditorPage } from './DocumentEditor';
import { paths } from './program-paths';
import { TIER_KIND } from './TierList';

const tierList = paths.list('tier');

/** `/programs/tier/create`: a new VIP tier; Save creates it and opens its page. */
export function NewTierPage() {
  const t = useT();
  return (
    <DocumentEditorPage
      source={{ mode: 'new', kind: TIER_KIND }}
      backTo={tierList}
      backLabel={t('tiers.title')}
      title={() => t('tiers.create')}
      afterCreate={(doc) => paths.tier(doc.id)}
    />
  );
}

/** `/programs/tier/:id`: a VIP tier's whole form, with a link to its rewards page. */
export function EditTierPage() {
  const t = useT();
  const { id = '' } = useParams();
  return (
    <DocumentEditorPage
      source={{ mode: 'edit', kind: TIER_KIND, id }}
      backTo={tierList}
      backLabel={t('tiers.title')}
      deletable
      secondaryActions={({ doc }) => doc && <ButtonLink to={paths.tierReward(doc.id)}>{t('tiers.rewards')}</ButtonLink>}
    />
  );
}

/** The parts of a tier the rewards page shows (spec 002 §2 "Tier reward pages"). */
const REWARD_PROPERTIES = ['entryReward', 'perks'];

/** `/membership/tier-reward/:id`: a tier's entry reward and perks; Save sends the whole tier. */
export function TierRewardPage() {
  const t = useT();
  const { id = '' } = useParams();
  return (
    <DocumentEditorPage
      source={{ mode: 'edit', kind: TIER_KIND, id }}
      backTo={paths.vip('tiers')}
      backLabel={t('vip.title')}
      title={({ doc, kind }) => t('tiers.rewardsTitle', { title: documentTitle(doc?.data ?? {}, kind.title) })}
      properties={REWARD_PROPERTIES}
    />
  );
}
