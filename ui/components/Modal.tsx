import { useEffect, useId, useRef, type ReactNode } from 'react';
import { useT } from '../i18n';
import { Button } from './Button';

export interface ModalAction {
  label: string;
  onAction: () => void;
  destructive?: boolean;
  loading?: boolean;
}

export interface ModalProps {
  open: boolean;
  title: string;
  /** Called on Escape, the close button and the secondary action. */
  onClose: () => void;
  primaryAction?: ModalAction;
  secondaryLabel?: string;
  /** A wider box (up to 56rem), for media such as the guide video. */
  wide?: boolean;
  children?: ReactNode;
}

/**
 * A modal on the native `<dialog>`: the browser traps focus, Escape fires `cancel`, and focus goes
 * back to the opener when it closes.
 */
export function Modal({ open, title, onClose, primaryAction, secondaryLabel, wide = false, children }: ModalProps) {
  const t = useT();
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      if (typeof dialog.showModal === 'function') dialog.showModal();
      else dialog.setAttribute('open', '');
    } else if (!open && dialog.open) {
      if (typeof dialog.close === 'function') dialog.close();
      else dialog.removeAttribute('open');
    }
  }, [open]);

  return (
    <dialog
      ref={ref}
      className={wide ? 'modal modal--wide' : 'modal'}
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      onKeyDown={(event) => {
        // Browsers without `cancel` on Escape (and jsdom) still close.
        if (event.key === 'Escape') {
          event.preventDefault();
          onClose();
        }
      }}
    >
      {open && (
        <div className="modal__box">
          <div className="modal__header">
            <h2 id={titleId} className="modal__title">
              {title}
            </h2>
            <button type="button" className="icon-button" aria-label={t('common.cancel')} onClick={onClose}>
              ×
            </button>
          </div>
          {children && <div className="modal__body">{children}</div>}
          <div className="modal__footer">
            <Button onClick={onClose}>{secondaryLabel ?? t('common.cancel')}</Button>
            {primaryAction && (
              <Button
                variant={primaryAction.destructive ? 'critical' : 'primary'}
                loading={primaryAction.loading}
                onClick={primaryAction.onAction}
              >
                {primaryAction.label}
              </Button>
            )}
          </div>
        </div>
      )}
    </dialog>
  );
}
