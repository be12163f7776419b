import type { ArrayFieldTemplateProps } from '@rjsf/utils';
import { buttonId } from '@rjsf/utils';
import { useT } from '../../i18n';
import { GroupLegend } from './GroupLegend';

/** A list of items with an "Add item" button under it. */
export function ArrayFieldTemplate({ title, schema, uiSchema, items, canAdd, onAddClick, disabled, readonly, fieldPathId, required }: ArrayFieldTemplateProps) {
  const t = useT();
  const label = (uiSchema?.['ui:title'] as string | undefined) ?? title;
  const description = (uiSchema?.['ui:description'] as string | undefined) ?? schema.description;
  return (
    <fieldset className="form-array" id={fieldPathId.$id}>
      <GroupLegend fieldPathId={fieldPathId} label={label} required={required} description={description} />
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
