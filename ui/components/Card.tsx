import type { ReactNode } from 'react';

export interface CardProps {
  title?: string;
  /** Header-side actions (links, buttons). */
  actions?: ReactNode;
  /** Lets tables run edge to edge. */
  flush?: boolean;
  children: ReactNode;
}

/** A white surface that groups related content. */
export function Card({ title, actions, flush = false, children }: CardProps) {
  return (
    <section className={flush ? 'card card--flush' : 'card'}>
      {(title || actions) && (
        <div className="card__header">
          {title && <h2 className="card__title">{title}</h2>}
          {actions}
        </div>
      )}
      {children}
    </section>
  );
}
