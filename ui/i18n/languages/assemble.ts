/**
 * One language's catalog from its main file (`ui/i18n/<lang>.json`) and its area files
 * (`ui/i18n/areas/<area>/<lang>.json`, found by a glob in each language's module); a key lives in
 * exactly one file, so the order does not matter.
 */
export function assemble(main: Record<string, string>, areas: Record<string, Record<string, string>>): Record<string, string> {
  return Object.assign({}, main, ...Object.values(areas)) as Record<string, string>;
}
