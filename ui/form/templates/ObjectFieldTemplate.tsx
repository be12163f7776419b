import type { ObjectFieldTemplateProps } from '@rjsf/utils';
import { descriptionId, titleId } from '@rjsf/utils';
import { conditionHolds, showWhenOf } from '../show-when';

/** Whether an error schema node carries any message, at any depth. */
function hasErrors(node: unknown): boolean {
  if (typeof node !== 'object' || node === null) return false;
  return Object.entries(node).some(([key, value]) => (key === '__errors' ? Array.isArray(value) && value.length > 0 : hasErrors(value)));
}

/** A ui.json `ui:groups` list (engine/schema-lint.ts checks its shape), or null when absent or empty. */
function formGroups(value: unknown): { title: string; fields: string[] }[] | null {
  if (!Array.isArray(value)) return null;
  const groups = value.flatMap((g: unknown) => {
    const group = g as { title?: unknown; fields?: unknown } | null;
    return group && typeof group.title === 'string' && Array.isArray(group.fields) ? [{ title: group.title, fields: group.fields.filter((f): f is string => typeof f === 'string') }] : [];
  });
  return groups.length > 0 ? groups : null;
}

/** Whether a uiSchema lays its form out as cards (`ui:groups`): the page then supplies no card of its own. */
export function hasFormGroups(uiSchema: unknown): boolean {
  return formGroups((uiSchema as Record<string, unknown> | null | undefined)?.['ui:groups']) !== null;
}

/**
 * An object: the root renders each property straight into the form (the page supplies the card),
 * or, with `ui:groups` in its uiSchema, as cards of fields, each titled; nested objects become a
 * titled group. A property whose `ui:options.showWhen` does not hold is
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
  const groups = isRoot ? formGroups(uiSchema?.['ui:groups']) : null;
  if (groups) {
    // The editor's cards (ui.json `ui:groups`): each group's visible fields in the form's order; a
    // group with "*" takes every field no group names (the last group when none has "*"); a group
    // with nothing to show is left out.
    const named = new Set(groups.flatMap((g) => g.fields));
    const rest = groups.findIndex((g) => g.fields.includes('*'));
    const restAt = rest >= 0 ? rest : groups.length - 1;
    const cards = groups.map((group, i) => ({ ...group, properties: visible.filter((p) => group.fields.includes(p.name) || (i === restAt && !named.has(p.name))) }));
    return (
      <div className="form-cards" id={fieldPathId.$id}>
        {cards
          .filter((card) => card.properties.length > 0)
          .map((card, i) => (
            <section key={card.title} className="card form-card" aria-labelledby={`${fieldPathId.$id}__card-${i}`}>
              <h2 id={`${fieldPathId.$id}__card-${i}`} className="form-card__title">
                {card.title}
              </h2>
              {card.properties.map((property) => property.content)}
            </section>
          ))}
        {shown.filter((property) => property.hidden).map((property) => property.content)}
      </div>
    );
  }
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
