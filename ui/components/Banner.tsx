import type { ReactNode, Ref } from 'react';
import { useT } from '../i18n';
import { Button } from './Button';

export type BannerTone = 'critical' | 'warning' | 'info' | 'success';

export interface BannerProps {
  tone?: BannerTone;
  title?: string;
  action?: { label: string; onAction: () => void };
  onDismiss?: () => void;
  children?: ReactNode;
  /** Lets a page move focus here after a failed action (the banner is focusable, not tabbable). */
  ref?: Ref<HTMLDivElement>;
}

const icons: Record<BannerTone, string> = { critical: '!', warning: '!', info: 'i', success: '✓' };

/** A page-level message; critical and warning banners are announced immediately. */
export function Banner({ tone = 'info', title, action, onDismiss, children, ref }: BannerProps) {
  const t = useT();
  const urgent = tone === 'critical' || tone === 'warning';
  return (
    <div ref={ref} tabIndex={ref ? -1 : undefined} className={`banner banner--${tone}`} role={urgent ? 'alert' : 'status'}>
      <span className="banner__icon" aria-hidden="true">
        {icons[tone]}
      </span>
      <div className="banner__body">
        {title && <p className="banner__title">{title}</p>}
        {children && <div className="banner__content">{children}</div>}
        {action && (
          <div className="banner__actions">
            <Button onClick={action.onAction}>{action.label}</Button>
          </div>
        )}
      </div>
      {onDismiss && (
        <button type="button" className="icon-button banner__dismiss" aria-label={t('common.dismiss')} onClick={onDismiss}>
          ×
        </button>
      )}
    </div>
  );
}
