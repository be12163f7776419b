import { useCallback, useEffect, useRef, useState, type Dispatch, type SetStateAction } from 'react';
import { takePrimed } from './primed';

export interface Resource<T> {
  data: T | undefined;
  error: unknown;
  loading: boolean;
  /** Loads the same key again; keeps the current data visible meanwhile. */
  reload: () => void;
  /** Local edits (optimistic updates) without a round trip. */
  setData: Dispatch<SetStateAction<T | undefined>>;
}

export interface ResourceOptions {
  /**
   * Keep showing the previous key's data while a new key loads, for keys that name the same thing
   * another way (the same list in another language) rather than a different thing.
   */
  keepData?: boolean;
}

/**
 * Loads data for a screen and reloads when `key` changes. Answers of superseded loads are dropped.
 * A key primed before the first render (ui/api/primed.ts) starts with its answer and is not loaded again.
 * @example const programs = useResource(`programs:${type}`, () => api.programs(type));
 * @example const kinds = useResource(`kinds:${language}`, () => api.kinds(language), { keepData: true });
 */
export function useResource<T>(key: string, load: () => Promise<T>, options: ResourceOptions = {}): Resource<T> {
  const { keepData = false } = options;
  // An answer loaded before the first render (ui/api/primed.ts) is the first data, not a load.
  const [primed] = useState(() => takePrimed<T>(key));
  const skipLoad = useRef(primed !== undefined);
  const [data, setData] = useState<T | undefined>(primed?.value);
  const [error, setError] = useState<unknown>();
  const [loading, setLoading] = useState(primed === undefined);
  const [generation, setGeneration] = useState(0);
  const loadRef = useRef(load);
  loadRef.current = load;
  const keyRef = useRef(key);

  useEffect(() => {
    if (skipLoad.current) {
      skipLoad.current = false;
      return;
    }
    let current = true;
    // A new key is a different thing: don't show the previous one's data while it loads.
    if (keyRef.current !== key && !keepData) setData(undefined);
    keyRef.current = key;
    setLoading(true);
    setError(undefined);
    loadRef.current().then(
      (value) => {
        if (!current) return;
        setData(value);
        setLoading(false);
      },
      (cause: unknown) => {
        if (!current) return;
        setError(cause);
        setLoading(false);
      },
    );
    return () => {
      current = false;
    };
    // `keepData` is read when the key changes; changing it alone is no reason to load again.
  }, [key, generation]);

  const reload = useCallback(() => setGeneration((n) => n + 1), []);
  return { data, error, loading, reload, setData };
}
