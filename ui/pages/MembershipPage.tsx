import { ApiError } from '../api/client';
import { api, type GateAnswer } from '../api/endpoints';
import { useResource } from '../api/use-resource';
import { Banner } from '../components/Banner';
import { ButtonLink } from '../components/Button';
import { Page } from '../components/Page';
import { useT, type MessageKey } from '../i18n';
import { PlanBadge } from './PlanGate';
import { paths } from './program-paths';

const ANNIVERSARY_EVENT = 'member_anniversary';

interface HubCard {
  id: string;
  title: MessageKey;
  body: MessageKey;
  /** The plan feature behind the card (rules/plan-gates.json), for its badge. */
  feature: string | null;
  /** Where "Manage" leads; none for an information-only card. */
  to: ((anniversaryId: string | undefined) => string) | null;
}

/** The hub's cards in the spec's order (spec 002 §2 Membership hub). */
const cards: HubCard[] = [
  { id: 'exclusive-deal', title: 'membership.deal.title', body: 'membership.deal.body', feature: 'member_exclusive_deal', to: () => paths.deals },
  { id: 'vip', title: 'membership.vip.title', body: 'membership.vip.body', feature: 'vip_tiers', to: () => paths.vip() },
  { id: 'partner', title: 'membership.partner.title', body: 'membership.partner.body', feature: 'partner_tier', to: () => paths.partners },
  {
    id: 'anniversary',
    title: 'membership.anniversary.title',
    body: 'membership.anniversary.body',
    feature: null,
    // The shop's existing anniversary program when there is one, else a new one.
    to: (id) => (id ? paths.edit(id) : paths.create(ANNIVERSARY_EVENT)),
  },
  { id: 'subscription', title: 'membership.subscription.title', body: 'membership.subscription.body', feature: 'subscription_membership', to: null },
];

/** `/membership`: one card per membership feature, each with the plan that unlocks it when the shop's plan does not. */
export function MembershipPage() {
  const t = useT();
  const gates = useResource('gates', () => api.gates());
  const anniversary = useResource('anniversary', async () => {
    const programs = await api.programs('earning');
    return programs.find((program) => program.event === ANNIVERSARY_EVENT)?.id ?? null;
  });
  const gateOf = (feature: string | null): GateAnswer | undefined => gates.data?.find((gate) => gate.feature === feature);

  return (
    <Page title={t('membership.title')}>
      {gates.error !== undefined && (
        <Banner tone="warning" title={t('membership.gatesFailed')} action={{ label: t('common.reload'), onAction: gates.reload }}>
          {gates.error instanceof ApiError ? gates.error.message : null}
        </Banner>
      )}
      <ul className="hub-grid">
        {cards.map((card) => {
          const gate = gateOf(card.feature);
          const headingId = `hub-${card.id}`;
          return (
            <li key={card.id}>
              <section className="card hub-card" aria-labelledby={headingId}>
              <div className="hub-card__header">
                <h2 id={headingId} className="card__title">
                  {t(card.title)}
                </h2>
                <PlanBadge gate={gate} />
              </div>
              <p className="hub-card__body">{t(card.body)}</p>
              {gate && !gate.allowed && <p className="hub-card__reason">{gate.reason}</p>}
              <div className="hub-card__actions">
                {card.to ? (
                  <ButtonLink to={card.to(anniversary.data ?? undefined)} aria-label={t('membership.manageLabel', { title: t(card.title) })}>
                    {t('membership.manage')}
                  </ButtonLink>
                ) : (
                  <span className="hub-card__info">{t('membership.infoOnly')}</span>
                )}
              </div>
              </section>
            </li>
          );
        })}
      </ul>
    </Page>
  );
}
