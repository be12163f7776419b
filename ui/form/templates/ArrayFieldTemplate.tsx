import type { ArrayFieldTemplateProps } from '@rjsf/utils';
import { buttonId, titleId } from '@rjsf/utils';
import { useT } from '../../i18n';

/** A list of items with an "Add item" button under it. */
export function ArrayFieldTemplate({ title, schema, uiSchema, items, canAdd, onAddClick, disabled, readonly, fieldPathId, required }: ArrayFieldTemplateProps) {
  const t = useT();
  const label = (uiSchema?.['ui:title'] as string | undefined) ?? title;
  const description = (uiSchema?.['ui:description'] as string | undefined) ?? schema.description;
  return (
    <fieldset className="form-array" id={fieldPathId.$id}>
      {label && (
        <legend id={titleId(fieldPathId)} className="form-object__title">
          {label}
          {required && <span className="form-field__required" aria-hidden="true"> *</span>}
        </legend>
      )}
      {description && <div className="form-field__help">{description}</div>}
      <div className="form-array__items">{items}</div>
      {canAdd && (
        <button
          type="button"
          id={buttonId(fieldPathId, 'add')}
          className="btn btn--plain form-array__add"
          onClick={onAddClick}
          disabled={disabled || readonly}
        >
          + {t('form.add')}
        </button>
      )}
    </fieldset>
  );
}
