import { useAtomValue, useSetAtom } from 'jotai';
import { useEffect } from 'react';
import { useT } from '../i18n';
import { dismissToastAtom, toastsAtom, type ToastMessage } from '../state/toasts';

/** How long a toast stays before it dismisses itself. */
export const TOAST_DURATION_MS = 5000;

function Toast({ toast }: { toast: ToastMessage }) {
  const t = useT();
  const dismiss = useSetAtom(dismissToastAtom);
  useEffect(() => {
    const timer = setTimeout(() => dismiss(toast.id), TOAST_DURATION_MS);
    return () => clearTimeout(timer);
  }, [dismiss, toast.id]);
  return (
    <div className={`toast toast--${toast.tone}`} role={toast.tone === 'error' ? 'alert' : 'status'}>
      <span className="toast__message">{toast.message}</span>
      <button type="button" className="toast__close" aria-label={t('toast.close')} onClick={() => dismiss(toast.id)}>
        ×
      </button>
    </div>
  );
}

/** Renders toasts at the bottom centre of the screen. Mounted once by the app frame. */
export function ToastRegion() {
  const toasts = useAtomValue(toastsAtom);
  return (
    <div className="toast-region" aria-live="polite">
      {toasts.map((toast) => (
        <Toast key={toast.id} toast={toast} />
      ))}
    </div>
  );
}
