import type { ReactNode } from 'react';

/** Badge tones of the shop admin; `success` is also the "active" tone. */
export type BadgeTone = 'success' | 'critical' | 'attention' | 'info' | 'neutral';

/** A short status label. */
export function Badge({ tone = 'neutral', children }: { tone?: BadgeTone; children: ReactNode }) {
  return <span className={`badge badge--${tone}`}>{children}</span>;
}
