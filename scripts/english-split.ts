import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { build } from 'esbuild';
import type { Plugin } from 'vite';

/**
 * The English chrome catalog in two parts (issue 12 "Speed": LCP of `/programs` on slow 4G, where
 * every kilobyte of the app's entry costs about 5 ms on the wire): the texts the app's entry and the
 * landing screens can show, bundled in the entry as before, and the rest (about three quarters of
 * it), in a chunk of its own that ui/i18n/index.ts `loadAllEnglish` fetches right after the first
 * render and before any other screen opens.
 *
 * Which texts the landing part holds is worked out at build time, not kept by hand: every key of the
 * catalog written as a string literal (`'programs.title'`) in a module the entry or a landing screen
 * imports statically (esbuild's metafile of those entry points, dynamic imports left out), and every
 * key a template literal there can make (`` `storefront.section.${name}.title` `` takes every
 * `storefront.section.<x>.title`). A text added to such a module is in the landing part at the next
 * build. A key the scan cannot see (built by concatenation) reads from the rest: until that arrives
 * the screen shows the key, then re-renders with the text (i18next's `added` event).
 */

/**
 * The two modules whose content the plugin replaces (ui/i18n/languages/en-landing.ts, en-rest.ts):
 * outside vite they hold the whole catalog and nothing, so tsx scripts see every text.
 */
const LANDING_MODULE = /\/ui\/i18n\/languages\/en-landing\.ts(?:\?.*)?$/;
const REST_MODULE = /\/ui\/i18n\/languages\/en-rest\.ts(?:\?.*)?$/;

/**
 * The whole English catalog, by key (ui/i18n/languages/en.ts, which merges the main, catalogue and
 * area files), loadable from any runtime (esbuild bundles the JSON imports): the split and the e2e
 * check of keys shown in place of texts read it.
 */
export async function wholeEnglish(root: string): Promise<Record<string, string>> {
  const result = await build({ entryPoints: [resolve(root, 'ui/i18n/languages/en.ts')], bundle: true, format: 'esm', write: false, platform: 'neutral', logLevel: 'error' });
  const source = result.outputFiles[0]!.text;
  const module = (await import(`data:text/javascript;base64,${Buffer.from(source).toString('base64')}`)) as { english: Record<string, string> };
  return module.english;
}

/** Our own source files (not node_modules, not the catalogs) statically reachable from `entries`. */
async function staticSources(root: string, entries: string[]): Promise<string[]> {
  const absolute = entries.map((entry) => resolve(root, entry));
  const result = await build({
    entryPoints: absolute,
    bundle: true,
    splitting: true,
    format: 'esm',
    write: false,
    metafile: true,
    outdir: resolve(root, '.english-split-scan'),
    packages: 'external',
    loader: { '.css': 'empty', '.svg': 'empty', '.png': 'empty' },
    jsx: 'automatic',
    logLevel: 'error',
      });
  const outputs = result.metafile!.outputs;
  const wanted = new Set(absolute.map((path) => path.slice(root.length + 1)));
  const seen = new Set<string>();
  const stack = Object.keys(outputs).filter((name) => wanted.has(outputs[name]!.entryPoint ?? ''));
  if (stack.length !== entries.length) throw new Error(`english-split: found ${stack.length} of ${entries.length} entry points in esbuild's metafile`);
  while (stack.length > 0) {
    const name = stack.pop()!;
    if (seen.has(name)) continue;
    seen.add(name);
    for (const imported of outputs[name]!.imports) if (imported.kind === 'import-statement' && outputs[imported.path]) stack.push(imported.path);
  }
  const inputs = new Set([...seen].flatMap((name) => Object.keys(outputs[name]!.inputs)));
  return [...inputs].filter((input) => /\.(?:ts|tsx)$/.test(input) && !input.includes('node_modules') && !input.startsWith('ui/i18n/languages/')).map((input) => resolve(root, input));
}

const STRING_LITERAL = /'([^'\\\n]+)'|"([^"\\\n]+)"|`([^`\\]+)`/g;
const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The catalog keys `source` names: literally, or as a template literal's pattern. */
export function keysNamedIn(source: string, keys: ReadonlySet<string>): Set<string> {
  const found = new Set<string>();
  const patterns: RegExp[] = [];
  for (const match of source.matchAll(STRING_LITERAL)) {
    const text = match[1] ?? match[2] ?? match[3]!;
    if (keys.has(text)) found.add(text);
    else if (match[3] !== undefined && /^[a-zA-Z][\w-]*\.[^\s]*\$\{/.test(text)) {
      // `prefix.${x}.suffix`: any characters where each placeholder stands.
      const pattern = text.split(/\$\{[^}]*\}/).map(escapeRegExp).join('.+');
      patterns.push(new RegExp(`^${pattern}$`));
    }
  }
  if (patterns.length > 0) for (const key of keys) if (patterns.some((pattern) => pattern.test(key))) found.add(key);
  return found;
}

/**
 * Splits the English catalog for `entries` (paths from `root`: the app's entry and the landing
 * screens' modules): `landing` holds every key those modules can show, `rest` every other.
 */
export async function splitEnglish(root: string, entries: string[]): Promise<{ landing: Record<string, string>; rest: Record<string, string> }> {
  const [english, sources] = await Promise.all([wholeEnglish(root), staticSources(root, entries)]);
  const keys = new Set(Object.keys(english));
  const named = new Set<string>();
  for (const file of sources) for (const key of keysNamedIn(readFileSync(file, 'utf8'), keys)) named.add(key);
  const landing: Record<string, string> = {};
  const rest: Record<string, string> = {};
  for (const [key, text] of Object.entries(english)) (named.has(key) ? landing : rest)[key] = text;
  return { landing, rest };
}

/**
 * Replaces the content of ui/i18n/languages/en-landing.ts and en-rest.ts for vite (the build, the dev
 * server and vitest) with the two parts, split for `entries` once per start. Each is `JSON.parse` of a string, which engines read
 * faster than an object literal of the same size.
 */
export function englishCatalogSplit(entries: string[]): Plugin {
  let split: Promise<{ landing: Record<string, string>; rest: Record<string, string> }> | undefined;
  const root = resolve(import.meta.dirname, '..');
  return {
    name: 'english-catalog-split',
    load: {
      filter: { id: [LANDING_MODULE, REST_MODULE] },
      async handler(id) {
        const landingPart = LANDING_MODULE.test(id);
        if (!landingPart && !REST_MODULE.test(id)) return null;
        split ??= splitEnglish(root, entries);
        const { landing, rest } = await split;
        return `export default JSON.parse(${JSON.stringify(JSON.stringify(landingPart ? landing : rest))});`;
      },
    },
  };
}
