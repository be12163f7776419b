import { closestCenter, DndContext, KeyboardSensor, PointerSensor, useSensor, useSensors, type Announcements, type DragEndEvent, type UniqueIdentifier } from '@dnd-kit/core';
import { arrayMove, SortableContext, sortableKeyboardCoordinates, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable';
import type { FieldProps, RJSFSchema } from '@rjsf/utils';
import { getUiOptions } from '@rjsf/utils';
import { useMemo, useState } from 'react';
import { Toggle } from '../../../components/Toggle';
import { useT } from '../../../i18n';
import { GroupLegend } from '../../../form/templates/GroupLegend';

// Sensor options at module level: new objects on each render would re-create the sensors.
const pointerOptions = { activationConstraint: { distance: 4 } };
const keyboardOptions = { coordinateGetter: sortableKeyboardCoordinates };

/** One content block of the widget design (engine/widget-design.ts `WidgetDesign['blocks']`). */
export interface ContentBlock {
  id: string;
  visible: boolean;
  items: number;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The blocks as saved, each with a usable id, visibility and item count. */
function blocksOf(formData: unknown): ContentBlock[] {
  if (!Array.isArray(formData)) return [];
  return formData.filter(isObject).map((b) => ({ id: String(b.id ?? ''), visible: b.visible !== false, items: typeof b.items === 'number' ? b.items : 10 }));
}

/** The item schema's parts this field reads: block names (`id`'s oneOf titles, in the admin's language), labels and the item count bounds. */
function itemParts(schema: RJSFSchema) {
  const items = (isObject(schema.items) ? schema.items : {}) as RJSFSchema;
  const props = (isObject(items.properties) ? items.properties : {}) as Record<string, RJSFSchema>;
  const names = new Map<string, string>();
  for (const option of Array.isArray(props.id?.oneOf) ? props.id.oneOf : []) {
    if (isObject(option) && typeof option.const === 'string') names.set(option.const, typeof option.title === 'string' ? option.title : option.const);
  }
  return {
    names,
    shownLabel: props.visible?.title ?? 'visible',
    itemsLabel: props.items?.title ?? 'items',
    min: typeof props.items?.minimum === 'number' ? props.items.minimum : 1,
    max: typeof props.items?.maximum === 'number' ? props.items.maximum : 50,
  };
}

/**
 * The item count: typed freely (an empty or out-of-range draft stays in the box), saved once it is a
 * whole number within `min`–`max`; leaving the box shows the saved count again.
 */
function ItemsInput({ id, label, value, min, max, disabled, onChange }: { id: string; label: string; value: number; min: number; max: number; disabled: boolean; onChange: (n: number) => void }) {
  const [draft, setDraft] = useState<string | null>(null);
  return (
    <input
      id={id}
      className="input__field"
      type="number"
      inputMode="numeric"
      min={min}
      max={max}
      value={draft ?? String(value)}
      disabled={disabled}
      aria-label={label}
      onChange={(event) => {
        setDraft(event.target.value);
        const n = Number(event.target.value);
        if (event.target.value !== '' && Number.isInteger(n) && n >= min && n <= max) onChange(n);
      }}
      onBlur={() => setDraft(null)}
    />
  );
}

interface RowProps {
  block: ContentBlock;
  index: number;
  count: number;
  name: string;
  baseId: string;
  shownLabel: string;
  itemsLabel: string;
  min: number;
  max: number;
  disabled: boolean;
  onChange: (next: ContentBlock) => void;
}

function BlockRow({ block, index, count, name, baseId, shownLabel, itemsLabel, min, max, disabled, onChange }: RowProps) {
  const t = useT();
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({ id: block.id, disabled });
  const rowId = `${baseId}_${index}`;
  return (
    <li
      ref={setNodeRef}
      data-block={block.id}
      className={isDragging ? 'content-blocks__row content-blocks__row--dragging' : 'content-blocks__row'}
      style={{ transform: transform ? `translate3d(0, ${Math.round(transform.y)}px, 0)` : undefined, transition }}
    >
      <button
        type="button"
        ref={setActivatorNodeRef}
        className="icon-button sortable-list__handle"
        {...attributes}
        {...listeners}
        aria-label={t('storefront.blocks.handle', { name, position: index + 1, count })}
        disabled={disabled}
      >
        <span aria-hidden="true">⠿</span>
      </button>
      <span className="content-blocks__name" id={`${rowId}_name`}>
        {name}
      </span>
      <span className="content-blocks__shown">
        <Toggle id={`${rowId}_visible`} label={`${shownLabel}: ${name}`} checked={block.visible} disabled={disabled} onChange={(visible) => onChange({ ...block, visible })} />
        <span aria-hidden="true">{shownLabel}</span>
      </span>
      <label className="content-blocks__items">
        <span aria-hidden="true">{itemsLabel}</span>
        <ItemsInput id={`${rowId}_items`} label={`${itemsLabel}: ${name}`} value={block.items} min={min} max={max} disabled={disabled} onChange={(items) => onChange({ ...block, items })} />
      </label>
    </li>
  );
}

/**
 * The widget's content blocks (spec 001 §2 "content blocks reordered by drag and drop", issue 13):
 * `"ui:field": "contentBlocks"` on the design's `blocks` array. Each block is a row named after it,
 * reordered by dragging its handle with the mouse or the keyboard (Space or Enter to pick up,
 * arrows to move, Space or Enter to drop, Escape to cancel), shown or hidden with a switch, with how
 * many items it lists. Blocks are never added or removed here: the list is the schema's blocks.
 */
export function ContentBlocksField({ schema, uiSchema = {}, formData, fieldPathId, onChange, disabled, readonly, name, required }: FieldProps) {
  const t = useT();
  const blocks = blocksOf(formData);
  const sensors = useSensors(useSensor(PointerSensor, pointerOptions), useSensor(KeyboardSensor, keyboardOptions));
  const parts = itemParts(schema);
  const uiOptions = getUiOptions(uiSchema);
  const off = Boolean(disabled || readonly);
  const label = (uiOptions.title as string | undefined) ?? schema.title ?? name;
  const description = (uiOptions.description as string | undefined) ?? schema.description;
  const ids = blocks.map((b) => b.id);
  const nameOf = (id: UniqueIdentifier) => parts.names.get(String(id)) ?? String(id);
  const position = (id: UniqueIdentifier) => ids.indexOf(String(id)) + 1;

  const commit = (next: ContentBlock[]) => onChange(next, fieldPathId.path);

  function onDragEnd({ active, over }: DragEndEvent) {
    const from = ids.indexOf(String(active.id));
    const to = over ? ids.indexOf(String(over.id)) : -1;
    if (from < 0 || to < 0 || from === to) return;
    commit(arrayMove(blocks, from, to));
  }

  const screenReaderInstructions = useMemo(() => ({ draggable: t('form.sortable.instructions') }), [t]);
  const announcements: Announcements = {
    onDragStart: ({ active }) => t('storefront.blocks.picked', { name: nameOf(active.id), position: position(active.id) }),
    onDragOver: ({ active, over }) => (over ? t('storefront.blocks.over', { name: nameOf(active.id), position: position(over.id) }) : undefined),
    onDragEnd: ({ active, over }) => (over ? t('storefront.blocks.dropped', { name: nameOf(active.id), position: position(over.id) }) : undefined),
    onDragCancel: ({ active }) => t('storefront.blocks.cancelled', { name: nameOf(active.id), position: position(active.id) }),
  };

  return (
    <fieldset className="form-array content-blocks" id={fieldPathId.$id}>
      <GroupLegend fieldPathId={fieldPathId} label={label} required={required} description={description} />
      {blocks.length === 0 ? (
        <p className="muted">{t('storefront.blocks.empty')}</p>
      ) : (
        <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={onDragEnd} accessibility={{ announcements, screenReaderInstructions }}>
          <SortableContext items={ids} strategy={verticalListSortingStrategy}>
            <ol className="content-blocks__list" aria-label={label}>
              {blocks.map((block, index) => (
                <BlockRow
                  key={block.id}
                  block={block}
                  index={index}
                  count={blocks.length}
                  name={nameOf(block.id)}
                  baseId={fieldPathId.$id}
                  shownLabel={parts.shownLabel}
                  itemsLabel={parts.itemsLabel}
                  min={parts.min}
                  max={parts.max}
                  disabled={off}
                  onChange={(next) => commit(blocks.map((b, i) => (i === index ? next : b)))}
                />
              ))}
            </ol>
          </SortableContext>
        </DndContext>
      )}
    </fieldset>
  );
}
