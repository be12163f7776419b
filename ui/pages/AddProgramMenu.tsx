import { useNavigate } from 'react-router-dom';
import type { KindCategory, KindSummary } from '../../engine/types';
import { ActionMenu, type MenuSection } from '../components/ActionMenu';
import { Badge } from '../components/Badge';
import { t, useT, type MessageKey } from '../i18n';
import limitRules from '../../rules/limits.json';
import { paths, tabOffersKind, type ProgramListTab } from './program-paths';

/** "Up to 10 place-order programs" (rules/limits.json, spec 001 §4, §9): the number the add menu checks before the form. */
export const PLACE_ORDER_LIMIT: number =
  (limitRules as { name: string; event: { params: { limit?: number } } }[]).find((rule) => rule.name === 'limit.place_order_programs')?.event.params.limit ?? 10;

/** Menu headings in the order the add menu shows them (spec 001 §3 "Add-program menu categories"). */
const categories: { id: KindCategory | null; label: MessageKey }[] = [
  { id: 'place_order', label: 'programs.category.place_order' },
  { id: 'online_store', label: 'programs.category.online_store' },
  { id: 'social', label: 'programs.category.social' },
  { id: 'shopify_pos', label: 'programs.category.shopify_pos' },
  { id: null, label: 'programs.category.other' },
];

/**
 * The "available in plan" badge from the server's gate answer (spec 000 §5): names the plan that
 * unlocks a gated template; a template the shop's plan allows gets none. Without an answer (older
 * server) a gated template gets a plain "Plan" badge.
 */
function planBadge(kind: KindSummary) {
  if (kind.gate) return kind.gate.allowed ? undefined : <Badge tone="info">{t('programs.availableIn', { plan: kind.gate.unlockPlan ?? '' })}</Badge>;
  return kind.feature !== null ? <Badge tone="info">{t('common.plan')}</Badge> : undefined;
}

/**
 * Groups the tab's templates by add-menu category; a template needing a plan feature gets a "Plan"
 * badge. With `placeOrderCount` at the limit, "Place an order" is shown unavailable and says why.
 */
export function menuSections(kinds: KindSummary[], tab: ProgramListTab, open: (kind: KindSummary) => void, placeOrderCount = 0): MenuSection[] {
  const offered = kinds.filter((kind) => tabOffersKind(tab, kind.id));
  const known = new Set(categories.map((category) => category.id));
  const categoryOf = (kind: KindSummary) => (known.has(kind.category) ? kind.category : null);
  return categories.map((category) => ({
    title: t(category.label),
    items: offered
      .filter((kind) => categoryOf(kind) === category.id)
      .map((kind) => {
        const full = kind.id === 'earning.place_order' && placeOrderCount >= PLACE_ORDER_LIMIT;
        return {
          id: kind.id,
          content: kind.title,
          helpText: full ? t('programs.list.placeOrderFull', { limit: PLACE_ORDER_LIMIT, count: placeOrderCount }) : kind.description,
          suffix: full ? <Badge tone="attention">{t('programs.list.unavailable')}</Badge> : planBadge(kind),
          disabled: full,
          onAction: () => open(kind),
        };
      }),
  }));
}

/** The "Add program" primary action of /programs. */
export function AddProgramMenu({ kinds, tab, variant, placeOrderCount = 0 }: { kinds: KindSummary[] | undefined; tab: ProgramListTab; variant?: 'primary' | 'secondary'; placeOrderCount?: number }) {
  const t = useT();
  const navigate = useNavigate();
  const sections = menuSections(
    kinds ?? [],
    tab,
    (kind) => navigate(tab === 'redeem' ? `${paths.create(kind.name)}?type=redeem` : paths.create(kind.name)),
    placeOrderCount,
  );
  return (
    <ActionMenu
      label={t('programs.add')}
      menuLabel={t('programs.menu.label')}
      sections={sections}
      emptyText={t('programs.menu.empty')}
      variant={variant}
      disabled={kinds === undefined}
    />
  );
}
