import { useEffect } from 'react';
import { useBlocker } from 'react-router-dom';
import { useT } from '../i18n';
import { Modal } from './Modal';

/** Navigation state that skips the prompt, for leaving on purpose (e.g. after deleting the document). */
export const LEAVE_WITHOUT_PROMPT = { leaveWithoutPrompt: true } as const;

function wantsNoPrompt(state: unknown): boolean {
  return (state as { leaveWithoutPrompt?: unknown } | null)?.leaveWithoutPrompt === true;
}

/**
 * Asks before leaving a page with unsaved changes (spec 001 §2 "Leave prompt"): a modal for in-app
 * navigation, the browser's own prompt for reloads and closing the tab.
 * @param when a function so a just-saved form can let its own redirect through in the same tick
 */
export function LeavePrompt({ when }: { when: () => boolean }) {
  const t = useT();
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      when() &&
      !wantsNoPrompt(nextLocation.state) &&
      (currentLocation.pathname !== nextLocation.pathname || currentLocation.search !== nextLocation.search),
  );

  useEffect(() => {
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (!when()) return;
      event.preventDefault();
      // Older browsers need a return value to show the prompt.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [when]);

  return (
    <Modal
      open={blocker.state === 'blocked'}
      title={t('leave.title')}
      onClose={() => blocker.reset?.()}
      secondaryLabel={t('leave.stay')}
      primaryAction={{ label: t('leave.leave'), destructive: true, onAction: () => blocker.proceed?.() }}
    >
      <p>{t('leave.body')}</p>
    </Modal>
  );
}
