import { useT } from '../i18n';
import { Button } from './Button';

export interface ContextualSaveBarProps {
  onSave: () => void;
  onDiscard: () => void;
  saving?: boolean;
  message?: string;
  /** Save stays off (e.g. the shop's plan does not allow what is being saved); Discard still works. */
  saveDisabled?: boolean;
}

/** The dark bar across the top while a form has unsaved changes (spec 000 §2 "save bar"). */
export function ContextualSaveBar({ onSave, onDiscard, saving = false, message, saveDisabled = false }: ContextualSaveBarProps) {
  const t = useT();
  return (
    <div className="save-bar" role="region" aria-label={message ?? t('saveBar.message')}>
      <div className="save-bar__inner">
        <p className="save-bar__message">
          <span className="save-bar__icon" aria-hidden="true">
            !
          </span>
          {message ?? t('saveBar.message')}
        </p>
        <div className="save-bar__actions">
          <Button variant="secondary" className="btn--on-dark" onClick={onDiscard} disabled={saving}>
            {t('common.discard')}
          </Button>
          <Button variant="primary" className="btn--inverse" onClick={onSave} loading={saving} disabled={saveDisabled}>
            {t('common.save')}
          </Button>
        </div>
      </div>
    </div>
  );
}
