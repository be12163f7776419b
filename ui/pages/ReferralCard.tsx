import { useAtomValue } from 'jotai';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import type { StoredDocument } from '../../engine/types';
import { ApiError } from '../api/client';
import { api } from '../api/endpoints';
import { useResource } from '../api/use-resource';
import { referralSummary } from '../areas/referrals/referral-summary';
import { Badge } from '../components/Badge';
import { Banner } from '../components/Banner';
import { ButtonLink } from '../components/Button';
import { Card } from '../components/Card';
import { EmptyState } from '../components/EmptyState';
import { SkeletonText } from '../components/Skeleton';
import { Toggle } from '../components/Toggle';
import { t, useLanguage, useT, type MessageKey } from '../i18n';
import { formatMoney } from '../i18n/formats';
import { currencyAtom } from '../state/session';
import { DeleteProgramModal, type DeleteTarget } from './DeleteProgramModal';
import { documentTitle } from './document-title';
import { paths } from './program-paths';
import { TrashIcon } from './ProgramsTable';
import { RefusalBanner } from './RefusalBanner';
import { useStatusToggle } from './use-status-toggle';

/** The referral singletons (spec 000 §2 /programs/referral…): one program and a reward on each side. */
export const REFERRAL_KINDS = { program: 'referral.program', friend: 'referral.friend_reward', customer: 'referral.customer_reward' } as const;

/** "10% off", "$5.00 off", "100 points", by the reward type; amounts in the admin's language. */
function rewardText(reward: StoredDocument, currency: string, language: string): string {
  const value = typeof reward.data.value === 'number' ? reward.data.value : 0;
  if (reward.data.rewardType === 'points') return t('referral.reward.points', { value });
  if (reward.data.rewardType === 'amount_discount') return t('referral.reward.off', { value: formatMoney(value, currency, language) });
  return t('referral.reward.off', { value: `${value}%` });
}

/** The shop's two referral reward documents, each null until it is set up. */
export interface ReferralRewardDocs {
  friend: StoredDocument | null;
  customer: StoredDocument | null;
}

/** Loads the friend's and the referring customer's reward documents (for the card and the editors' summary line). */
export function useReferralRewards() {
  return useResource<ReferralRewardDocs>('referral:rewards', async () => {
    const [friend, customer] = await Promise.all([api.docs(REFERRAL_KINDS.friend), api.docs(REFERRAL_KINDS.customer)]);
    return { friend: friend[0] ?? null, customer: customer[0] ?? null };
  });
}

function RewardRow({ label, to, reward }: { label: MessageKey; to: string; reward: StoredDocument | null | undefined }) {
  const t = useT();
  const currency = useAtomValue(currencyAtom);
  const language = useLanguage();
  const title = t(label);
  return (
    <li className="referral-card__row">
      <div className="referral-card__row-main">
        <span className="referral-card__row-title">{title}</span>
        {reward === undefined ? null : reward === null ? (
          <span className="referral-card__row-help">{t('referral.notSetUp')}</span>
        ) : (
          <span className="referral-card__row-help">
            {rewardText(reward, currency, language)}{' '}
            <Badge tone={reward.data.status === true ? 'success' : 'neutral'}>
              {t(reward.data.status === true ? 'programs.status.active' : 'programs.status.inactive')}
            </Badge>
          </span>
        )}
      </div>
      <Link className="btn btn--plain" to={to} aria-label={t(reward ? 'referral.editLabel' : 'referral.setUpLabel', { title })}>
        {t(reward ? 'common.edit' : 'referral.setUp')}
      </Link>
    </li>
  );
}

/** The referral tab of /programs: the referral program card, or an empty state until it exists. */
export function ReferralCard() {
  const t = useT();
  const program = useResource(`docs:${REFERRAL_KINDS.program}`, () => api.docs(REFERRAL_KINDS.program));
  const rewards = useReferralRewards();
  const currency = useAtomValue(currencyAtom);
  const language = useLanguage();
  const titleOf = (doc: StoredDocument) => documentTitle(doc.data, t('referral.title'));
  const { pending, toggle, refusal, dismissRefusal } = useStatusToggle<StoredDocument>(program.setData, titleOf);
  const [deleting, setDeleting] = useState<DeleteTarget | null>(null);

  if (program.error !== undefined) {
    return (
      <Banner tone="critical" title={t('catalogue.listFailed')} action={{ label: t('common.reload'), onAction: program.reload }}>
        {program.error instanceof ApiError ? program.error.message : null}
      </Banner>
    );
  }
  if (program.data === undefined) {
    return (
      <Card>
        <SkeletonText lines={4} />
      </Card>
    );
  }
  const doc = program.data[0];
  if (!doc) {
    return (
      <Card>
        <EmptyState
          heading={t('referral.empty.heading')}
          action={
            <ButtonLink variant="primary" to={paths.referral}>
              {t('referral.empty.action')}
            </ButtonLink>
          }
        >
          {t('referral.empty.body')}
        </EmptyState>
      </Card>
    );
  }

  const title = titleOf(doc);
  const active = doc.data.status === true;
  // What both sides get, in one plain line (issue: "a one-line plain summary"), once both rewards are in.
  const summary = rewards.data ? referralSummary({ friend: rewards.data.friend?.data, customer: rewards.data.customer?.data }, currency, language) : '';
  return (
    <>
      <RefusalBanner message={refusal} onDismiss={dismissRefusal} />
      <Card
        title={title}
        actions={
          <span className="referral-card__status">
            <Badge tone={active ? 'success' : 'neutral'}>{t(active ? 'programs.status.active' : 'programs.status.inactive')}</Badge>
            <Toggle checked={active} label={t('programs.toggle', { title })} disabled={pending.has(doc.id)} onChange={() => void toggle(doc)} />
            <button type="button" className="icon-button icon-button--critical" aria-label={t('programs.deleteLabel', { title })} onClick={() => setDeleting({ id: doc.id, kind: doc.kind, title })}>
              <TrashIcon />
            </button>
          </span>
        }
      >
        {summary && <p className="editor-summary editor-summary--above">{summary}</p>}
        {typeof doc.data.description === 'string' && doc.data.description && <p className="referral-card__description">{doc.data.description}</p>}
        <ul className="referral-card__rows">
          <li className="referral-card__row">
            <div className="referral-card__row-main">
              <span className="referral-card__row-title">{t('referral.settings')}</span>
              <span className="referral-card__row-help">{t('referral.settingsHelp')}</span>
            </div>
            <Link className="btn btn--plain" to={paths.referral} aria-label={t('referral.editLabel', { title: t('referral.settings') })}>
              {t('common.edit')}
            </Link>
          </li>
          <RewardRow label="referral.friendReward" to={paths.friendReward} reward={rewards.data?.friend} />
          <RewardRow label="referral.customerReward" to={paths.customerReward} reward={rewards.data?.customer} />
        </ul>
      </Card>
      <DeleteProgramModal
        program={deleting}
        onClose={() => setDeleting(null)}
        onDeleted={(id) => program.setData((current) => current?.filter((row) => row.id !== id))}
      />
    </>
  );
}
