import { Navigate, type RouteObject } from 'react-router-dom';
import { customersRoutes } from './areas/customers/routes';
import { storefrontRoutes } from './areas/storefront/routes';
import { comingSoonRoutes } from './areas/shell/coming-soon';
import { billingRoutes } from './areas/billing/routes';
import { settingsRoutes } from './areas/settings/routes';
import { devZoneRoutes } from './areas/devzone/routes';
import { versionsRoutes } from './areas/versions/routes';
import { translationsRoutes } from './areas/translations/routes';
import { setupRoutes } from './areas/setup/routes';

/**
 * Every screen of spec 000 §2 but the landing ones (ui/app.tsx `appRoutes` holds those), as children
 * of the chrome's screens route. A chunk of its own: the app starts without it and the router
 * patches it in on the first navigation beyond the landing screens (ui/app.tsx `createAppRouter`),
 * so the first load neither downloads nor ranks about a hundred routes (issue 12 "Speed").
 */
export const screenRoutes: RouteObject[] = [
  { path: 'programs/:event/new', lazy: () => import('./pages/NewProgramPage').then((m) => ({ Component: m.NewProgramPage })) },
  { path: 'programs/point/:id', lazy: () => import('./pages/EditProgramPage').then((m) => ({ Component: m.EditProgramPage })) },
  { path: 'programs/edit-settings/:id', lazy: () => import('./pages/EditSettingsPage').then((m) => ({ Component: m.EditSettingsPage })) },
  { path: 'programs/tier/create', lazy: () => import('./pages/TierPages').then((m) => ({ Component: m.NewTierPage })) },
  { path: 'programs/tier/:id', lazy: () => import('./pages/TierPages').then((m) => ({ Component: m.EditTierPage })) },
  { path: 'programs/referral', lazy: () => import('./pages/ReferralPages').then((m) => ({ Component: m.ReferralProgramPage })) },
  { path: 'programs/referral/friendReward', lazy: () => import('./pages/ReferralPages').then((m) => ({ Component: m.FriendRewardPage })) },
  { path: 'programs/referral/customerReward', lazy: () => import('./pages/ReferralPages').then((m) => ({ Component: m.CustomerRewardPage })) },
  { path: 'membership', lazy: () => import('./pages/MembershipPage').then((m) => ({ Component: m.MembershipPage })) },
  { path: 'membership/vip', lazy: () => import('./pages/VipTiersPage').then((m) => ({ Component: m.VipTiersPage })) },
  { path: 'membership/tier-reward/:id', lazy: () => import('./pages/TierPages').then((m) => ({ Component: m.TierRewardPage })) },
  { path: 'membership/exclusive-deal', lazy: () => import('./pages/ExclusiveDealPages').then((m) => ({ Component: m.ExclusiveDealsPage })) },
  { path: 'membership/exclusive-deal/new', lazy: () => import('./pages/ExclusiveDealPages').then((m) => ({ Component: m.ExclusiveDealEditPage })) },
  { path: 'membership/exclusive-deal/:id', lazy: () => import('./pages/ExclusiveDealPages').then((m) => ({ Component: m.ExclusiveDealEditPage })) },
  { path: 'wholesale/vip', lazy: () => import('./pages/PartnerTierPages').then((m) => ({ Component: m.PartnerTiersPage })) },
  { path: 'wholesale/vip/new', lazy: () => import('./pages/PartnerTierPages').then((m) => ({ Component: m.PartnerTierEditPage })) },
  { path: 'wholesale/vip/:id', lazy: () => import('./pages/PartnerTierPages').then((m) => ({ Component: m.PartnerTierEditPage })) },
  ...settingsRoutes,
  ...devZoneRoutes,
  { path: 'settings/webhooks', lazy: () => import('./pages/WebhookDeliveriesPage').then((m) => ({ Component: m.WebhookDeliveriesPage })) },
  // The earning programs list lives at /programs (its default tab).
  { path: 'programs/point', element: <Navigate to="/programs" replace /> },
  ...customersRoutes,
  ...versionsRoutes,
  ...storefrontRoutes,
  ...translationsRoutes,
  ...billingRoutes,
  ...setupRoutes,
  // Spec routes whose screens are not built yet: a designed card, never Not Found.
  ...comingSoonRoutes,
];
