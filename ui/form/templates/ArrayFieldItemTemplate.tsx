import type { ArrayFieldItemTemplateProps } from '@rjsf/utils';
import { useT } from '../../i18n';

/** One list item: its fields, then move and remove buttons with spoken names. */
export function ArrayFieldItemTemplate({ children, buttonsProps, hasToolbar, index }: ArrayFieldItemTemplateProps) {
  const t = useT();
  const { hasMoveUp, hasMoveDown, hasRemove, onMoveUpItem, onMoveDownItem, onRemoveItem, disabled, readonly } = buttonsProps;
  const off = disabled || readonly;
  const position = index + 1;
  return (
    <div className="form-array__item">
      <div className="form-array__item-body">{children}</div>
      {hasToolbar && (
        <div className="form-array__toolbar">
          {(hasMoveUp || hasMoveDown) && (
            <>
              <button type="button" className="icon-button" aria-label={`${t('form.moveUp')} ${position}`} disabled={off || !hasMoveUp} onClick={onMoveUpItem}>
                ↑
              </button>
              <button type="button" className="icon-button" aria-label={`${t('form.moveDown')} ${position}`} disabled={off || !hasMoveDown} onClick={onMoveDownItem}>
                ↓
              </button>
            </>
          )}
          {hasRemove && (
            <button type="button" className="icon-button icon-button--critical" aria-label={`${t('form.remove')} ${position}`} disabled={off} onClick={onRemoveItem}>
              ×
            </button>
          )}
        </div>
      )}
    </div>
  );
}
