import type { RouteObject } from 'react-router-dom';

/** The wallet pass screens (spec 000 §2 `/customers/wallet`, `/customers/wallet/google`). */
export const walletRoutes: RouteObject[] = [
  { path: 'customers/wallet', lazy: () => import('./WalletPages').then((m) => ({ Component: m.WalletPassPage })) },
  { path: 'customers/wallet/google', lazy: () => import('./WalletPages').then((m) => ({ Component: m.GoogleWalletPage })) },
];
