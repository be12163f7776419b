import type { RouteObject } from 'react-router-dom';

/** The billing area's screens (spec 000 §2 "Shell and billing"), mounted inside the admin chrome before the fallbacks. */
export const billingRoutes: RouteObject[] = [
  ...['subscription', 'settings/subscription/plans', 'customize_plan'].map((path) => ({ path, lazy: () => import('./PlansPage').then((m) => ({ Component: m.PlansPage })) })),
  { path: 'billing-dashboard', lazy: () => import('./BillingDashboardPage').then((m) => ({ Component: m.BillingDashboardPage })) },
  { path: 'downSell', lazy: () => import('./DownSellPage').then((m) => ({ Component: m.DownSellPage })) },
  { path: 'subscription/billing', lazy: () => import('./SubscriptionReturnPage').then((m) => ({ Component: m.SubscriptionReturnPage })) },
];
