import { useT } from '../i18n';
import { DocumentEditorPage } from './DocumentEditor';
import { paths } from './program-paths';
import { REFERRAL_KINDS } from './ReferralCard';

const referralList = paths.list('referral');

/** One referral singleton: the shop's document if it exists, else a new form; POST once, PUT after. */
function ReferralSingletonPage({ kind }: { kind: string }) {
  const t = useT();
  return <DocumentEditorPage key={kind} source={{ mode: 'singleton', kind }} backTo={referralList} backLabel={t('referral.title')} />;
}

/** `/programs/referral`: the referral program. */
export function ReferralProgramPage() {
  return <ReferralSingletonPage kind={REFERRAL_KINDS.program} />;
}

/** `/programs/referral/friendReward`: what the referred friend gets. */
export function FriendRewardPage() {
  return <ReferralSingletonPage kind={REFERRAL_KINDS.friend} />;
}

/** `/programs/referral/customerReward`: what the referring customer gets. */
export function CustomerRewardPage() {
  return <ReferralSingletonPage kind={REFERRAL_KINDS.customer} />;
}
