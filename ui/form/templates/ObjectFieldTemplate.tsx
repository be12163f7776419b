import type { ObjectFieldTemplateProps } from '@rjsf/utils';
import { descriptionId, titleId } from '@rjsf/utils';
import { conditionHolds, showWhenOf } from '../show-when';

/** Whether an error schema node carries any message, at any depth. */
function hasErrors(node: unknown): boolean {
  if (typeof node !== 'object' || node === null) return false;
  return Object.entries(node).some(([key, value]) => (key === '__errors' ? Array.isArray(value) && value.length > 0 : hasErrors(value)));
}

/**
 * An object: the root renders each property straight into the form (the page supplies the card);
 * nested objects become a titled group. A property whose `ui:options.showWhen` does not hold is
 * left out (its value stays in the data) unless it has an error to fix; a condition on a sibling
 * that is not on screen (a tab showing part of the object) never hides anything.
 */
export function ObjectFieldTemplate({ title, description, properties, fieldPathId, uiSchema, formData, errorSchema }: ObjectFieldTemplateProps) {
  const names = new Set(properties.map((property) => property.name));
  const shown = properties.filter((property) => {
    const condition = showWhenOf(uiSchema?.[property.name]);
    if (!condition || !names.has(condition.field)) return true;
    return conditionHolds(condition, formData) || hasErrors((errorSchema as Record<string, unknown> | undefined)?.[property.name]);
  });
  const visible = shown.filter((property) => !property.hidden);
  const isRoot = fieldPathId.path.length === 0;
  const showTitle = !isRoot && title && uiSchema?.['ui:label'] !== false;
  return (
    <fieldset className={isRoot ? 'form-object form-object--root' : 'form-object'} id={fieldPathId.$id}>
      {showTitle && (
        <legend id={titleId(fieldPathId)} className="form-object__title">
          {title}
        </legend>
      )}
      {!isRoot && description && (
        <div id={descriptionId(fieldPathId)} className="form-field__help">
          {description}
        </div>
      )}
      {visible.map((property) => property.content)}
      {shown.filter((property) => property.hidden).map((property) => property.content)}
    </fieldset>
  );
}
