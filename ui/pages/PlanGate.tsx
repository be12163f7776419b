import { Link, useNavigate } from 'react-router-dom';
import { api, type GateAnswer } from '../api/endpoints';
import { PLAN_BY_DISPLAY_NAME } from '../areas/billing/api';
import { useResource } from '../api/use-resource';
import { Badge } from '../components/Badge';
import { Banner } from '../components/Banner';
import { useLabelLanguage, useT } from '../i18n';

/** Whether the shop's plan keeps it from using a feature (no answer means nothing to gate). */
export function isGated(gate: GateAnswer | null | undefined): gate is GateAnswer {
  return gate !== null && gate !== undefined && !gate.allowed;
}

/** The plans page with the plan that unlocks a gate picked out, or null when no plan does (Shopify Plus). */
export function unlockPlanPath(gate: GateAnswer): string | null {
  const plan = gate.unlockPlan ? PLAN_BY_DISPLAY_NAME[gate.unlockPlan] : undefined;
  return plan ? `/subscription?plan=${plan}` : null;
}

/** "Available on Advanced": the plan that unlocks a gated feature (spec 000 §5), linking to it on the plans page; nothing when allowed. */
export function PlanBadge({ gate }: { gate: GateAnswer | null | undefined }) {
  const t = useT();
  if (!isGated(gate)) return null;
  const badge = <Badge tone="info">{t('programs.availableIn', { plan: gate.unlockPlan ?? t('common.plan') })}</Badge>;
  const to = unlockPlanPath(gate);
  return to ? <Link to={to} className="plan-badge-link">{badge}</Link> : badge;
}

/** Why a screen can't be saved on this plan: the unlock plan and the server's reason. */
export function GateBanner({ gate }: { gate: GateAnswer }) {
  const t = useT();
  const navigate = useNavigate();
  const to = unlockPlanPath(gate);
  return (
    <Banner
      tone="warning"
      title={t('catalogue.gate.title', { plan: gate.unlockPlan ?? t('common.plan') })}
      {...(to ? { action: { label: t('billing.seePlan', { plan: gate.unlockPlan ?? '' }), onAction: () => navigate(to) } } : {})}
    >
      <p>{gate.reason}</p>
    </Banner>
  );
}

/** The shop's gate answer for a kind (from `GET /api/kinds`); undefined while loading or when the kind needs no feature. */
export function useKindGate(kind: string): GateAnswer | undefined {
  const language = useLabelLanguage();
  const kinds = useResource(`kinds:${language}`, () => api.kinds(language), { keepData: true });
  return kinds.data?.find((summary) => summary.id === kind)?.gate ?? undefined;
}
