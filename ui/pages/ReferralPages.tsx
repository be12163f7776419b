import { useAtomValue } from 'jotai';
import type { JsonObject } from '../../engine/types';
import { referralSummary, type ReferralRewards } from '../areas/referrals/referral-summary';
import { useLanguage, useT } from '../i18n';
import { currencyAtom } from '../state/session';
import { DocumentEditorPage } from './DocumentEditor';
import { paths } from './program-paths';
import { REFERRAL_KINDS, useReferralRewards } from './ReferralCard';

const referralList = paths.list('referral');

/**
 * One referral singleton: the shop's document if it exists, else a new form; POST once, PUT after.
 * Over the form, what both sides get in one line: the side this page edits as typed, the other as saved.
 */
function ReferralSingletonPage({ kind }: { kind: string }) {
  const t = useT();
  const rewards = useReferralRewards();
  const currency = useAtomValue(currencyAtom);
  const language = useLanguage();
  const summary = (data: JsonObject): string => {
    // Nothing until the saved rewards are in (a line that grows a clause a moment later reads as a change);
    // if they cannot be loaded, the line says what this page knows.
    if (rewards.data === undefined && rewards.error === undefined) return '';
    const sides: ReferralRewards = { friend: rewards.data?.friend?.data, customer: rewards.data?.customer?.data };
    if (kind === REFERRAL_KINDS.friend) sides.friend = data;
    if (kind === REFERRAL_KINDS.customer) sides.customer = data;
    return referralSummary(sides, currency, language);
  };
  return <DocumentEditorPage key={kind} source={{ mode: 'singleton', kind }} backTo={referralList} backLabel={t('referral.title')} summary={summary} />;
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
