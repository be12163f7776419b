import { closestCenter, DndContext, KeyboardSensor, PointerSensor, useSensor, useSensors, type Announcements, type DragEndEvent, type UniqueIdentifier } from '@dnd-kit/core';
import { arrayMove, SortableContext, sortableKeyboardCoordinates, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable';
import type { ErrorSchema, FieldProps, RJSFSchema, UiSchema } from '@rjsf/utils';
import { getUiOptions, toFieldPathId } from '@rjsf/utils';
import { useMemo, useState, type ReactNode } from 'react';
import { useT } from '../../i18n';
import { GroupLegend } from '../templates/GroupLegend';

// Sensor options live at module level: new objects each render would re-create the sensors.
const pointerOptions = { activationConstraint: { distance: 4 } };
const keyboardOptions = { coordinateGetter: sortableKeyboardCoordinates };

let lastKey = 0;
const newKey = () => `sortable-${++lastKey}`;

/** One stable key per item that travels with it when it moves, so React keeps its inputs (and focus). */
function useItemKeys(length: number) {
  const [keys, setKeys] = useState<string[]>(() => Array.from({ length }, newKey));
  if (keys.length === length) return [keys, setKeys] as const;
  // The list grew or shrank from outside (Discard, a reload): keep the keys we have.
  const adjusted = Array.from({ length }, (_, index) => keys[index] ?? newKey());
  setKeys(adjusted);
  return [adjusted, setKeys] as const;
}

const isItemRequired = (schema: RJSFSchema) => (Array.isArray(schema.type) ? !schema.type.includes('null') : schema.type !== 'null');

function SortableItem({ id, index, disabled, canRemove, onRemove, children }: { id: string; index: number; disabled: boolean; canRemove: boolean; onRemove: () => void; children: ReactNode }) {
  const t = useT();
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({ id, disabled });
  const position = index + 1;
  return (
    <li
      ref={setNodeRef}
      className={isDragging ? 'form-array__item sortable-list__item sortable-list__item--dragging' : 'form-array__item sortable-list__item'}
      // Only the vertical part of the drag: the list reorders top to bottom.
      style={{ transform: transform ? `translate3d(0, ${Math.round(transform.y)}px, 0)` : undefined, transition }}
    >
      <button type="button" ref={setActivatorNodeRef} className="icon-button sortable-list__handle" {...attributes} {...listeners} aria-label={t('form.sortable.handle', { n: position })} disabled={disabled}>
        <span aria-hidden="true">⠿</span>
      </button>
      <div className="form-array__item-body">{children}</div>
      <div className="form-array__toolbar">
        <button type="button" className="icon-button icon-button--critical" aria-label={`${t('form.remove')} ${position}`} disabled={!canRemove} onClick={onRemove}>
          ×
        </button>
      </div>
    </li>
  );
}

/**
 * A list whose items are reordered by dragging their handle, with the mouse or the keyboard (Space to
 * pick up, arrows to move, Space to drop) — `"ui:field": "sortableList"` on an array. Each item renders
 * through RJSF's own SchemaField with `items` of the uiSchema; `ui:options.addable`/`removable` and the
 * schema's `minItems`/`maxItems` govern the add and remove buttons.
 */
export function SortableListField({ schema, uiSchema = {}, formData, errorSchema, fieldPathId, registry, onChange, onBlur, onFocus, disabled, readonly, hideError, name, required }: FieldProps) {
  const t = useT();
  const items: unknown[] = Array.isArray(formData) ? formData : [];
  const [keys, setKeys] = useItemKeys(items.length);
  const sensors = useSensors(useSensor(PointerSensor, pointerOptions), useSensor(KeyboardSensor, keyboardOptions));
  const { schemaUtils, globalFormOptions, fields } = registry;
  const ItemField = fields.ArraySchemaField ?? fields.SchemaField!;
  const uiOptions = getUiOptions(uiSchema);
  const itemsSchema = (schema.items && typeof schema.items === 'object' && !Array.isArray(schema.items) ? schema.items : {}) as RJSFSchema;
  const off = Boolean(disabled || readonly);
  const canAdd = !off && uiOptions.addable !== false && items.length < (schema.maxItems ?? Infinity);
  const canRemove = !off && uiOptions.removable !== false && items.length > (schema.minItems ?? 0);
  const label = (uiOptions.title as string | undefined) ?? schema.title ?? name;
  // Each item is headed by the items' own title when they have one ("Milestone 2"), else the list's.
  const itemLabel = typeof itemsSchema.title === 'string' ? itemsSchema.title : label;
  const description = (uiOptions.description as string | undefined) ?? schema.description;

  function commit(next: unknown[], nextKeys: string[]) {
    setKeys(nextKeys);
    onChange(next, fieldPathId.path);
  }

  function onDragEnd({ active, over }: DragEndEvent) {
    const from = keys.indexOf(String(active.id));
    const to = over ? keys.indexOf(String(over.id)) : -1;
    if (from < 0 || to < 0 || from === to) return;
    commit(arrayMove(items, from, to), arrayMove(keys, from, to));
  }

  const position = (id: UniqueIdentifier) => keys.indexOf(String(id)) + 1;
  const screenReaderInstructions = useMemo(() => ({ draggable: t('form.sortable.instructions') }), [t]);
  const announcements: Announcements = {
    onDragStart: ({ active }) => t('form.sortable.picked', { from: position(active.id) }),
    onDragOver: ({ active, over }) => (over ? t('form.sortable.over', { from: position(active.id), to: position(over.id) }) : undefined),
    onDragEnd: ({ active, over }) => (over ? t('form.sortable.dropped', { from: position(active.id), to: position(over.id) }) : undefined),
    onDragCancel: ({ active }) => t('form.sortable.cancelled', { from: position(active.id) }),
  };

  return (
    <fieldset className="form-array sortable-list" id={fieldPathId.$id}>
      <GroupLegend fieldPathId={fieldPathId} label={label} required={required} description={description} />
      <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={onDragEnd} accessibility={{ announcements, screenReaderInstructions }}>
        <SortableContext items={keys} strategy={verticalListSortingStrategy}>
          <ol className="form-array__items sortable-list__items">
            {items.map((item, index) => {
              const key = keys[index] ?? String(index);
              // Without its title, so the numbered heading below is the one RJSF shows.
              const { title: _itemTitle, ...itemSchema } = schemaUtils.retrieveSchema(itemsSchema, item);
              return (
                <SortableItem key={key} id={key} index={index} disabled={off} canRemove={canRemove} onRemove={() => commit(items.filter((_, i) => i !== index), keys.filter((_, i) => i !== index))}>
                  <ItemField
                    name={`${name}-${index}`}
                    title={itemLabel ? `${itemLabel} ${index + 1}` : undefined}
                    index={index}
                    schema={itemSchema}
                    uiSchema={uiSchema.items as UiSchema | undefined}
                    formData={item}
                    errorSchema={(errorSchema as Record<number, ErrorSchema> | undefined)?.[index]}
                    fieldPathId={toFieldPathId(index, globalFormOptions, fieldPathId)}
                    required={isItemRequired(itemSchema)}
                    onChange={onChange}
                    onBlur={onBlur}
                    onFocus={onFocus}
                    registry={registry}
                    disabled={disabled}
                    readonly={readonly}
                    hideError={hideError}
                  />
                </SortableItem>
              );
            })}
          </ol>
        </SortableContext>
      </DndContext>
      {canAdd && (
        <button
          type="button"
          className="btn btn--plain form-array__add"
          onClick={() => commit([...items, schemaUtils.getDefaultFormState(itemsSchema, undefined)], [...keys, newKey()])}
        >
          + {t('form.add')}
        </button>
      )}
    </fieldset>
  );
}
