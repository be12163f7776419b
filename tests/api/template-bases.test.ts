/**
 * Template bases (issue 15): moving the templates onto `schemas/_bases/*` (`x-extends`) must not
 * change what the registry serves. The snapshot in tests/fixtures/template-bases/served.json was
 * written from the templates BEFORE they moved onto bases: for every kind, the exact served JSON
 * (`GET /api/kinds/:kind?language=`, i.e. `registry.localized`) in every in-app language is
 * pinned by its SHA-256, and the English detail is kept in full so a failure shows a readable diff.
 * The kinds list (`registry.summaries`) is pinned per language the same way. The snapshot was not
 * written again when the tier, membership, integration, settings and referral program templates
 * moved onto their bases (document, tier, membership, integration, settings, referral): the same
 * pins prove those moves too.
 *
 * After an intended template change, write the snapshot again:
 * `UPDATE_TEMPLATE_SNAPSHOT=1 npx vitest run tests/api/template-bases.test.ts`.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { IN_APP_LANGUAGES } from '../../engine/languages';
import { loadRegistry } from '../../engine/registry';
import type { KindDetail } from '../../engine/types';

const ROOT = join(import.meta.dirname, '..', '..');
const SNAPSHOT = join(ROOT, 'tests', 'fixtures', 'template-bases', 'served.json');

interface Snapshot {
  /** Per kind: the English detail in full and the SHA-256 of the served JSON per language. */
  kinds: Record<string, { en: KindDetail; sha256: Record<string, string> }>;
  /** SHA-256 of the kinds list per language. */
  summaries: Record<string, string>;
}

const sha256 = (value: unknown): string => createHash('sha256').update(JSON.stringify(value)).digest('hex');

/** `only`: the kinds to pin (those of the committed snapshot; every kind when writing it). */
function currentSnapshot(only?: readonly string[]): Snapshot {
  const registry = loadRegistry(join(ROOT, 'schemas'));
  const kinds: Snapshot['kinds'] = {};
  for (const id of registry.kinds.map((k) => k.id).sort()) {
    if (only !== undefined && !only.includes(id)) continue;
    const en = registry.localized(id, 'en');
    if (!en) throw new Error(`no kind ${id}`);
    kinds[id] = { en, sha256: Object.fromEntries(IN_APP_LANGUAGES.map((language) => [language, sha256(registry.localized(id, language))])) };
  }
  const pinned = (id: string): boolean => only === undefined || only.includes(id);
  const summaries = Object.fromEntries(IN_APP_LANGUAGES.map((language) => [language, sha256(registry.summaries(language).filter((k) => pinned(k.id)))]));
  return { kinds, summaries };
}

describe('served templates stay identical when templates move onto bases', () => {
  if (process.env.UPDATE_TEMPLATE_SNAPSHOT === '1' || !existsSync(SNAPSHOT)) {
    mkdirSync(dirname(SNAPSHOT), { recursive: true });
    writeFileSync(SNAPSHOT, `${JSON.stringify(currentSnapshot(), null, 1)}\n`);
  }
  const pinned = JSON.parse(readFileSync(SNAPSHOT, 'utf8')) as Snapshot;
  // A kind added after the snapshot (another area's new template) is not pinned here.
  const now = currentSnapshot(Object.keys(pinned.kinds));

  it('pins every kind the snapshot knows (41 program kinds and settings.shop at least)', () => {
    expect(Object.keys(pinned.kinds).length).toBeGreaterThanOrEqual(42);
    for (const id of Object.keys(pinned.kinds)) expect(Object.keys(now.kinds)).toContain(id);
  });

  it('pins the kinds moved onto family bases later (tier, membership, integration, settings, the referral program)', () => {
    const moved = ['tier.tier', 'tier.partner', 'tier.settings', 'membership.exclusive_deal', 'integration.review_app', 'settings.shop', 'referral.program'];
    for (const id of moved) expect(Object.keys(pinned.kinds)).toContain(id);
  });

  it.each(Object.keys(pinned.kinds))('%s is served byte-identical in every language', (id) => {
    const before = pinned.kinds[id];
    const after = now.kinds[id];
    expect(after).toBeDefined();
    if (!before || !after) return;
    // Readable diff first (English), then the exact bytes of every language.
    expect(after.en).toEqual(before.en);
    expect(JSON.stringify(after.en)).toBe(JSON.stringify(before.en));
    expect(after.sha256).toEqual(before.sha256);
  });

  it('serves the kinds list identical in every language', () => {
    expect(now.summaries).toEqual(pinned.summaries);
  });
});
