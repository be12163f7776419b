/**
 * The English catalog split for the app's entry (issue 12 "Speed"): the texts the entry and the
 * landing screens show are bundled, the rest is a chunk fetched after the first render
 * (scripts/english-split.ts).
 */
import { describe, expect, it } from 'vitest';
import { keysNamedIn, splitEnglish } from '../../scripts/english-split';
import { english } from '../../ui/i18n/languages/en';
import { LANDING_ENTRIES } from '../../vite.config';

describe('English catalog split', () => {
  it('names keys written as string literals, and every key a template literal can make', () => {
    const keys = new Set(['nav.programs', 'nav.customers', 'storefront.section.points.title', 'storefront.section.vip.title', 'storefront.section.vip.description', 'common.save']);
    const source = "t('nav.programs'); const label = \"common.save\"; t(`storefront.section.${name}.title`); const url = `${base}/nav.customers`;";
    expect([...keysNamedIn(source, keys)].sort()).toEqual(['common.save', 'nav.programs', 'storefront.section.points.title', 'storefront.section.vip.title']);
  });

  it('puts every key in exactly one part, the landing screens\' texts in the bundled one', async () => {
    const { landing, rest } = await splitEnglish(process.cwd(), LANDING_ENTRIES);
    const whole: Record<string, string> = english;
    expect(Object.keys(landing).filter((key) => key in rest)).toEqual([]);
    expect(Object.keys({ ...landing, ...rest }).sort()).toEqual(Object.keys(whole).sort());
    for (const key of Object.keys(landing)) expect(landing[key]).toBe(whole[key]);
    // The chrome and the programs list (the landing screen) are bundled …
    for (const key of ['nav.programs', 'programs.list.givesPerSpent', 'programs.title']) expect(landing).toHaveProperty([key]);
    // … a screen reached only through a lazy route is not.
    const importKeys = Object.keys(whole).filter((key) => key.startsWith('import.'));
    expect(importKeys.length).toBeGreaterThan(0);
    for (const key of importKeys) expect(rest).toHaveProperty([key]);
    // Most of the catalog leaves the entry.
    expect(JSON.stringify(rest).length).toBeGreaterThan(2 * JSON.stringify(landing).length);
  }, 30_000);
});
