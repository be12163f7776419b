import type { WidgetProps } from '@rjsf/utils';
import { ariaDescribedByIds } from '@rjsf/utils';
import { useRef, useState, type KeyboardEvent } from 'react';
import { useT } from '../../i18n';
import { catalogSources, type CatalogSource } from './catalog-sources';
import { useCatalog } from './use-catalog';

/**
 * Picks ids for an array-of-strings field from the shop's catalogue: a search box (one request per
 * pause in typing), results with checkboxes, and the selection as removable tags showing titles.
 * Stops at the schema's `maxItems`. Arrow keys move between the box and the results; Escape closes them.
 */
export function CatalogPicker({ source, id, value, schema, disabled, readonly, rawErrors, onChange }: WidgetProps & { source: CatalogSource }) {
  const t = useT();
  const selected = Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
  const max = typeof schema.maxItems === 'number' ? schema.maxItems : Infinity;
  const full = selected.length >= max;
  const off = disabled || readonly;

  const [query, setQuery] = useState('');
  const [open, setOpen] = useState(false);
  const catalog = useCatalog(source, { open, query, selected });
  const searchRef = useRef<HTMLInputElement>(null);
  const listRef = useRef<HTMLUListElement>(null);

  function toggle(itemId: string) {
    if (selected.includes(itemId)) onChange(selected.filter((other) => other !== itemId));
    else if (!full) onChange([...selected, itemId]);
  }

  function remove(itemId: string) {
    onChange(selected.filter((other) => other !== itemId));
    // The tag's button disappears; keep focus in the picker.
    searchRef.current?.focus();
  }

  const checkboxes = () => Array.from(listRef.current?.querySelectorAll<HTMLInputElement>('input:not(:disabled)') ?? []);

  function onSearchKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'Enter') event.preventDefault();
    else if (event.key === 'Escape' && open) {
      event.preventDefault();
      setOpen(false);
    } else if (event.key === 'ArrowDown') {
      event.preventDefault();
      setOpen(true);
      checkboxes()[0]?.focus();
    }
  }

  function onListKeyDown(event: KeyboardEvent<HTMLUListElement>) {
    const boxes = checkboxes();
    const at = boxes.indexOf(document.activeElement as HTMLInputElement);
    if (at < 0) return;
    const target = event.key === 'ArrowDown' ? boxes[at + 1] : event.key === 'ArrowUp' ? (boxes[at - 1] ?? searchRef.current) : event.key === 'Escape' ? searchRef.current : undefined;
    if (!target) return;
    event.preventDefault();
    target.focus();
  }

  const listId = `${id}__results`;
  const statusId = `${id}__status`;
  const status = full
    ? source.fullMessage(max)
    : !open ? ''
    : catalog.searching ? t('form.picker.searching')
    : catalog.error ? t('form.loadFailed')
    : catalog.items.length === 0 ? t('form.picker.noResults')
    : '';
  const showList = open && catalog.items.length > 0;

  return (
    <div className="picker">
      <div className={(rawErrors?.length ?? 0) > 0 ? 'input input--invalid' : off ? 'input input--disabled' : 'input'}>
        <span className="input__prefix picker__search-icon" aria-hidden="true">
          <svg viewBox="0 0 20 20" width="16" height="16" fill="none" stroke="currentColor" strokeWidth="1.75" strokeLinecap="round">
            <circle cx="8.5" cy="8.5" r="5.5" />
            <path d="M12.5 12.5l4.5 4.5" />
          </svg>
        </span>
        <input
          ref={searchRef}
          id={id}
          type="search"
          className="input__field"
          value={query}
          placeholder={source.searchLabel()}
          autoComplete="off"
          disabled={off}
          aria-controls={showList ? listId : undefined}
          aria-expanded={showList}
          aria-describedby={[statusId, ariaDescribedByIds(id)].join(' ')}
          onFocus={() => setOpen(true)}
          onChange={(event) => {
            setOpen(true);
            setQuery(event.target.value);
          }}
          onKeyDown={onSearchKeyDown}
        />
      </div>
      <p id={statusId} className={full ? 'picker__status picker__status--full' : 'picker__status'} role="status">
        {status}
      </p>
      {showList && (
        <ul id={listId} ref={listRef} className="picker__results" aria-label={t('form.picker.results')} onKeyDown={onListKeyDown}>
          {catalog.items.map((item) => {
            const checked = selected.includes(item.id);
            return (
              <li key={item.id}>
                <label className={checked ? 'picker__result picker__result--selected' : 'picker__result'}>
                  <input type="checkbox" checked={checked} disabled={off || (!checked && full)} onChange={() => toggle(item.id)} />
                  <span className="picker__result-title">{item.title}</span>
                  {item.detail && <span className="picker__result-detail">{item.detail}</span>}
                </label>
              </li>
            );
          })}
        </ul>
      )}
      {selected.length > 0 && (
        <ul className="picker__tags" aria-label={t('form.picker.selected')}>
          {selected.map((itemId) => {
            const title = catalog.titleOf(itemId);
            return (
              <li key={itemId} className="picker__tag">
                <span className="picker__tag-title">{title}</span>
                <button type="button" className="picker__tag-remove" aria-label={t('form.picker.remove', { title })} disabled={off} onClick={() => remove(itemId)}>
                  ×
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}

/** Product ids (`"ui:widget": "productPicker"` on an array of id strings). */
export function ProductPickerWidget(props: WidgetProps) {
  return <CatalogPicker {...props} source={catalogSources.products} />;
}

/** Collection ids (`"ui:widget": "collectionPicker"` on an array of id strings). */
export function CollectionPickerWidget(props: WidgetProps) {
  return <CatalogPicker {...props} source={catalogSources.collections} />;
}
