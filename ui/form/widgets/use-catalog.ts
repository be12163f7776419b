import { useEffect, useState } from 'react';
import type { CatalogItem, CatalogSource } from './catalog-sources';
import { useDebouncedValue } from './use-debounced-value';

const SEARCH_DELAY_MS = 250;
/** The catalogue answers at most 50 items per call, so title lookups go in parts of 50 ids. */
const LOOKUP_PART = 50;

function parts<T>(list: T[], size: number): T[][] {
  return Array.from({ length: Math.ceil(list.length / size) }, (_, i) => list.slice(i * size, (i + 1) * size));
}

interface Results {
  /** The search these results answer; null before the first. */
  query: string | null;
  items: CatalogItem[];
  error: boolean;
}

/**
 * What a catalogue picker shows: search results for `query` once it has settled (while `open`), and
 * the titles of the `selected` ids, looked up once each. Answers of superseded calls are dropped.
 */
export function useCatalog(source: CatalogSource, { open, query, selected }: { open: boolean; query: string; selected: string[] }) {
  const settledQuery = useDebouncedValue(query.trim(), SEARCH_DELAY_MS);
  const [results, setResults] = useState<Results>({ query: null, items: [], error: false });
  /** Titles by id; null once looked up and not found (a deleted product shows its id). */
  const [titles, setTitles] = useState<ReadonlyMap<string, string | null>>(new Map());

  function remember(items: CatalogItem[], asked: string[] = []) {
    setTitles((previous) => {
      const next = new Map(previous);
      for (const askedId of asked) next.set(askedId, null);
      for (const item of items) next.set(item.id, item.title);
      return next;
    });
  }

  useEffect(() => {
    if (!open) return;
    const controller = new AbortController();
    source.search(settledQuery, controller.signal).then(
      (items) => {
        if (controller.signal.aborted) return;
        setResults({ query: settledQuery, items, error: false });
        remember(items);
      },
      () => {
        if (!controller.signal.aborted) setResults({ query: settledQuery, items: [], error: true });
      },
    );
    return () => controller.abort();
  }, [open, settledQuery, source]);

  const missingKey = selected.filter((itemId) => !titles.has(itemId)).join(',');
  useEffect(() => {
    if (!missingKey) return;
    const ids = missingKey.split(',');
    const controller = new AbortController();
    Promise.all(parts(ids, LOOKUP_PART).map((part) => source.byIds(part, controller.signal))).then(
      (lists) => {
        if (!controller.signal.aborted) remember(lists.flat(), ids);
      },
      // Without titles the tags show ids; picking still works.
      () => {},
    );
    return () => controller.abort();
  }, [missingKey, source]);

  return {
    items: results.items,
    error: results.error,
    searching: open && (results.query !== settledQuery || settledQuery !== query.trim()),
    titleOf: (itemId: string) => titles.get(itemId) ?? itemId,
  };
}
