import { useAtomValue } from 'jotai';
import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { shopAtom } from '../../state/session';

/**
 * Paths that stay reachable while the shop's setup is not done: the wizard itself and the return
 * from the platform's charge confirmation (a plan bought from the wizard's plan badges).
 */
const OPEN_PATHS = ['/set-up', '/subscription/billing'];

/**
 * Spec 000 §2 "If the shop's setup is not done, a setup page replaces the app": once the shop has
 * loaded and says `setupDone: false`, every other screen sends the merchant to `/set-up` (under
 * `/embed` too: paths are the router's, inside its basename). A shop the server sends without the
 * flag (an older server) is treated as set up.
 */
export function SetupGate({ children }: { children: ReactNode }) {
  const shop = useAtomValue(shopAtom);
  const { pathname } = useLocation();
  if (shop?.shop.setupDone === false && !OPEN_PATHS.some((p) => pathname === p || pathname.startsWith(`${p}/`))) return <Navigate to="/set-up" replace />;
  return children;
}
