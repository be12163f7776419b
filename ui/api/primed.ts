/**
 * Answers a landing screen needs, loaded before its first render (issue 12 "Speed": LCP of
 * `/programs` on slow 4G with 4× CPU). The preload script (vite.config.ts) starts a landing screen's
 * first API calls before the app's code arrives, so by the time the code has run they have usually
 * arrived; `ui/main.tsx` waits (briefly, `PRIME_WAIT_MS`) for them to be read, and the screen's
 * `useResource` then starts with the data instead of a loading state, one render and one layout
 * fewer before the content is drawn. A call that fails or is not back in time is simply not primed:
 * the screen loads it as always.
 */

/** How long the first render waits for the primed calls (ms) before drawing the screen without them. */
export const PRIME_WAIT_MS = 400;

/** How long a primed answer may stand in for a load (ms): the first render takes it at once. */
const PRIME_FRESH_MS = 10_000;

const primed = new Map<string, { value: unknown; at: number }>();

/**
 * Starts `load` and keeps its answer under `key` (a `useResource` key) once it arrives; resolves
 * when it has, or failed (a failure is left for the screen's own load to show).
 */
export function primeResource<T>(key: string, load: () => Promise<T>): Promise<void> {
  return load().then(
    (value) => {
      primed.set(key, { value, at: Date.now() });
    },
    () => undefined,
  );
}

/**
 * The primed answer of `key`, taken once (later loads of the key ask the server); undefined when
 * there is none or it is older than 10 s.
 */
export function takePrimed<T>(key: string): { value: T } | undefined {
  const entry = primed.get(key);
  if (!entry) return undefined;
  primed.delete(key);
  return Date.now() - entry.at > PRIME_FRESH_MS ? undefined : { value: entry.value as T };
}

/** Forgets every primed answer (tests). */
export function clearPrimed(): void {
  primed.clear();
}
