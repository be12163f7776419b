import { atom, useSetAtom } from 'jotai';
import { useCallback } from 'react';

export type ToastTone = 'default' | 'error';

export interface ToastMessage {
  id: number;
  message: string;
  tone: ToastTone;
}

/** Toasts on screen, oldest first; the ToastRegion renders and expires them. */
export const toastsAtom = atom<ToastMessage[]>([]);

let nextId = 1;

export const showToastAtom = atom(null, (get, set, toast: { message: string; tone?: ToastTone }) => {
  set(toastsAtom, [...get(toastsAtom), { id: nextId++, message: toast.message, tone: toast.tone ?? 'default' }]);
});

export const dismissToastAtom = atom(null, (get, set, id: number) => {
  set(
    toastsAtom,
    get(toastsAtom).filter((toast) => toast.id !== id),
  );
});

/**
 * Shows a toast from any component.
 * @example const toast = useToast(); toast('Program saved'); toast(error.message, 'error');
 */
export function useToast(): (message: string, tone?: ToastTone) => void {
  const show = useSetAtom(showToastAtom);
  return useCallback((message, tone) => show({ message, tone }), [show]);
}
