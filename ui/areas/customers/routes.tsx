import type { RouteObject } from 'react-router-dom';
import { walletRoutes } from './wallet/routes';

/** The customers area's screens (spec 000 §2), mounted inside the admin chrome before the fallbacks. */
export const customersRoutes: RouteObject[] = [
  { path: 'customers', lazy: () => import('./CustomersPage').then((m) => ({ Component: m.CustomersPage })) },
  { path: 'customers/activity/review', lazy: () => import('./ReviewsPage').then((m) => ({ Component: m.ReviewsPage })) },
  // Customer import wizard and history (spec 002 §2 Migration wizard; spec 000 names the route /customers/migration too).
  { path: 'customers/import', lazy: () => import('./import/CustomerImportPage').then((m) => ({ Component: m.CustomerImportPage })) },
  { path: 'customers/migration', lazy: () => import('./import/CustomerImportPage').then((m) => ({ Component: m.CustomerImportPage })) },
  // Referral whitelist (spec 002 §2): customers whose referrals skip anti-cheat.
  { path: 'customers/whitelist/referral', lazy: () => import('./ReferralWhitelistPage').then((m) => ({ Component: m.ReferralWhitelistPage })) },
  // Customer segments (spec 002 §2 RFM groups): counts, the excluded groups, an update from the platform.
  { path: 'customers/segments', lazy: () => import('./SegmentsPage').then((m) => ({ Component: m.SegmentsPage })) },
  // Wallet pass designer and Google Wallet settings (spec 000 §2, spec 002 §2).
  ...walletRoutes,
  // E-mailed exports and, without a mail server (demo mode), the sent e-mails (spec 002 §2 "Exports are emailed as CSV").
  { path: 'customers/exports', lazy: () => import('./export/ExportsPage').then((m) => ({ Component: m.ExportsPage })) },
  { path: 'customers/profile/:id', lazy: () => import('./CustomerProfilePage').then((m) => ({ Component: m.CustomerProfilePage })) },
];
