import type { ReactNode } from 'react';
import { Icon } from './Icon';

/** What a list shows before it has anything: a heading, a line of help and the first action. */
export function EmptyState({ heading, children, action }: { heading: string; children?: ReactNode; action?: ReactNode }) {
  return (
    <div className="empty-state">
      <div className="empty-state__art" aria-hidden="true">
        <Icon name="star" />
      </div>
      <h2 className="empty-state__heading">{heading}</h2>
      {children && <p className="empty-state__body">{children}</p>}
      {action && <div className="empty-state__action">{action}</div>}
    </div>
  );
}
