/**
 * Template bases (issue 15): how a template is merged onto `schemas/_bases/*` (`x-extends`,
 * `x-omit`), and what `npm run schemas:check` says about bases and about a template that repeats
 * its base. Works on small copies of the repository's schemas folder (the bases, the shared parts
 * and catalogs, and a few templates) so each case is fast and independent of other kinds.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadRegistry } from '../../engine/registry';
import { lintSchemas } from '../../engine/schema-lint';
import { listTemplates, loadTemplates, mergeOrdered } from '../../engine/template-loader';
import type { JsonObject } from '../../engine/types';
import * as form from '../../ui/form/widgets';

const ROOT = join(import.meta.dirname, '..', '..');
const UI = { widgets: form.widgetNames, fields: (form as { fieldNames?: readonly string[] }).fieldNames ?? [] };
const KINDS = ['earning/follow_instagram', 'earning/birthday', 'redeem/amount_discount', 'referral/friend_reward'];

/** A schemas folder holding the bases, shared parts, catalogs, meta-schemas and KINDS only. */
function smallCopy(): string {
  const dir = mkdtempSync(join(tmpdir(), 'bases-'));
  for (const part of ['_meta', '_shared', '_i18n', '_bases', ...KINDS]) cpSync(join(ROOT, 'schemas', part), join(dir, part), { recursive: true });
  return dir;
}
const readJson = (dir: string, file: string): JsonObject => JSON.parse(readFileSync(join(dir, file), 'utf8')) as JsonObject;
const writeJson = (dir: string, file: string, value: unknown): void => writeFileSync(join(dir, file), `${JSON.stringify(value, null, 2)}\n`);
const edit = (dir: string, file: string, change: (json: JsonObject) => void): void => {
  const json = readJson(dir, file);
  change(json);
  writeJson(dir, file, json);
};
type Props = Record<string, JsonObject>;

describe('merging a template onto its bases', () => {
  it('keeps base keys in place, puts a new key after the key written before it, and replaces lists', () => {
    expect(mergeOrdered({ a: 1, b: { x: 1, y: [1, 2] }, c: 3 }, { b: { y: [9] }, n: 0, z: 2 })).toEqual({ a: 1, b: { x: 1, y: [9] }, n: 0, c: 3, z: 2 });
    expect(Object.keys(mergeOrdered({ a: 1, b: 2, c: 3 }, { b: {}, n: 0 }))).toEqual(['a', 'b', 'n', 'c']);
    // A new key written first goes after the base's keys.
    expect(Object.keys(mergeOrdered({ a: 1, b: 2 }, { n: 0 }))).toEqual(['a', 'b', 'n']);
  });

  it('serves a flat draft-07 schema: no x-extends, required the union, ui deep-merged with the template ui:order winning', () => {
    const dir = smallCopy();
    mkdirSync(join(dir, 'earning', 'follow_threads'));
    writeJson(dir, 'earning/follow_threads/schema.json', {
      'x-extends': 'social',
      title: 'Follow on Threads',
      description: 'Customers earn points for following the store on Threads.',
      'x-kind': 'earning.follow_threads',
      'x-name': 'follow_threads',
      'x-order': 95,
      required: ['socialUrl'],
      properties: {
        title: { default: 'Follow on Threads' },
        socialUrl: { title: 'Threads profile link', description: 'Must be a link to threads.net.', pattern: '^[Hh][Tt][Tt][Pp][Ss]://(www\\.)?threads\\.net/\\S+$' },
        handle: { type: 'string', title: 'Handle', maxLength: 64 },
      },
    });
    writeJson(dir, 'earning/follow_threads/ui.json', { 'ui:order': ['title', 'socialUrl', '*'], earnPoint: { 'ui:help': 'Points per follow' } });
    const kind = loadRegistry(dir).get('earning.follow_threads');
    expect(kind).toBeDefined();
    if (!kind) return;
    const schema = kind.schema;
    expect(schema.$schema).toBe('http://json-schema.org/draft-07/schema#');
    expect(schema).not.toHaveProperty('x-extends');
    expect(schema['x-family']).toBe('earning');
    expect(schema['x-category']).toBe('social');
    expect(Object.keys(schema.properties as JsonObject)).toEqual([
      'title', 'translateTitle', 'status', 'earnPoint', 'socialUrl', 'handle', 'hasLimit', 'limitInterval', 'limitUnit',
      'earnPointsLimit', 'customerEligibility', 'eligibleTiers', 'startDate', 'endDate',
    ]);
    expect((schema.properties as Props).title).toEqual({ type: 'string', title: 'Program name', minLength: 1, maxLength: 255, default: 'Follow on Threads' });
    expect(schema.required).toEqual(['title', 'status', 'earnPoint', 'hasLimit', 'limitInterval', 'limitUnit', 'customerEligibility', 'eligibleTiers', 'socialUrl']);
    expect(kind.uiSchema['ui:order']).toEqual(['title', 'socialUrl', '*']);
    expect(kind.uiSchema.earnPoint).toEqual({ 'ui:widget': 'points', 'ui:help': 'Points per follow' });
    expect(kind.uiSchema.limitUnit).toEqual({ 'ui:options': { showWhen: { field: 'hasLimit', equals: true } } });
    // The merged template validates documents like any other.
    expect(kind.validate({ socialUrl: 'https://threads.net/@shop' })).toMatchObject({ ok: true, data: { title: 'Follow on Threads', earnPoint: 50 } });
    expect(kind.validate({ socialUrl: 'https://example.com/x' })).toMatchObject({ ok: false });
  });

  it('drops a base field named in x-omit from properties, required and the base ui.json', () => {
    const dir = smallCopy();
    edit(dir, 'earning/birthday/schema.json', (s) => {
      s['x-omit'] = ['eligibleTiers', 'earnPointsLimit'];
    });
    const kind = loadRegistry(dir).get('earning.birthday');
    expect(kind).toBeDefined();
    if (!kind) return;
    expect(kind.schema.properties).not.toHaveProperty('eligibleTiers');
    expect(kind.schema.properties).not.toHaveProperty('earnPointsLimit');
    expect(kind.schema.required).not.toContain('eligibleTiers');
    expect(kind.uiSchema).not.toHaveProperty('eligibleTiers');
    expect(kind.uiSchema).not.toHaveProperty('earnPointsLimit');
    expect(kind.validate({ eligibleTiers: [] })).toMatchObject({ ok: false });
  });

  it('lists the template folders once for the registry, the lint and the label catalogs (bases and _ folders are not kinds)', () => {
    const dir = smallCopy();
    expect(listTemplates(dir).map((t) => t.id)).toEqual(['earning.birthday', 'earning.follow_instagram', 'redeem.amount_discount', 'referral.friend_reward']);
    expect(loadTemplates(dir).templates.map((t) => t.bases)).toEqual([
      ['document', 'program', 'earning'],
      ['document', 'program', 'earning', 'social'],
      ['document', 'program', 'redeem'],
      ['document', 'referral', 'referral-reward'],
    ]);
  });
});

describe('every family on bases', () => {
  it('puts the tier, membership, integration, settings and referral program templates on their family bases, all on document', () => {
    const chainOf = (id: string): string[] | undefined => loadTemplates(join(ROOT, 'schemas'), { only: id }).templates[0]?.bases;
    const moved = ['tier.tier', 'tier.partner', 'tier.settings', 'membership.exclusive_deal', 'integration.review_app', 'settings.shop', 'referral.program'];
    expect(Object.fromEntries(moved.map((id) => [id, chainOf(id)]))).toEqual({
      'tier.tier': ['document', 'tier'],
      'tier.partner': ['document', 'tier'],
      'tier.settings': ['document', 'tier'],
      'membership.exclusive_deal': ['document', 'membership'],
      'integration.review_app': ['document', 'integration'],
      'settings.shop': ['document', 'settings'],
      'referral.program': ['document', 'referral'],
    });
    const tierSettings = loadRegistry(join(ROOT, 'schemas'), { only: 'tier.settings' }).get('tier.settings');
    // The tier base's name is dropped (x-omit) from the settings document, its ui:order too.
    expect(tierSettings?.schema.properties).not.toHaveProperty('name');
    expect(tierSettings?.schema.required).not.toContain('name');
  });

  it('makes a new template of a one-template family short: the integration base brings the keys, the status and the one-per-shop rule', () => {
    const dir = smallCopy();
    mkdirSync(join(dir, 'integration', 'second_review_app'), { recursive: true });
    writeJson(dir, 'integration/second_review_app/schema.json', {
      'x-extends': 'integration',
      title: 'Review app connection',
      description: 'Step 1 of the review program: connect a review app with its app key and secret key. Writing reviews through the review app needs a paid plan of that app. One per shop.',
      'x-kind': 'integration.second_review_app',
      'x-name': 'second_review_app',
      properties: { app: { title: 'Review app', default: 'yotpo', oneOf: [{ const: 'yotpo', title: 'Yotpo' }, { const: 'loox', title: 'Loox' }] } },
    });
    // Labels come translated from the shared catalogs; no ui.json or i18n folder of its own.
    expect(lintSchemas(dir, UI)).toEqual([]);
    const kind = loadRegistry(dir).get('integration.second_review_app');
    expect(kind?.singleton).toBe(true);
    expect(kind?.schema.required).toEqual(['app', 'appKey', 'secretKey', 'status']);
    expect(kind?.writeOnly).toEqual([['secretKey']]);
    expect(kind?.uiSchema).toMatchObject({ 'ui:order': ['app', 'appKey', 'secretKey', 'status'], secretKey: { 'ui:widget': 'password' } });
  });

  it('every template in the repository extends a base (any family, present or future)', () => {
    const dir = join(ROOT, 'schemas');
    const withoutBase = listTemplates(dir)
      .filter((ref) => !('x-extends' in (JSON.parse(readFileSync(join(dir, ref.schemaFile), 'utf8')) as JsonObject)))
      .map((ref) => `schemas/${ref.schemaFile}`);
    expect(withoutBase).toEqual([]);
  });

  it('makes schemas:check report a template that extends no base, naming the file', () => {
    const dir = smallCopy();
    // The same template written flat (as served, before bases): valid, but it restates its base.
    const birthday = loadTemplates(dir, { only: 'earning.birthday' }).templates[0];
    expect(birthday).toBeDefined();
    if (!birthday) return;
    writeJson(dir, 'earning/birthday/schema.json', birthday.schema);
    writeJson(dir, 'earning/birthday/ui.json', birthday.ui);
    expect(loadRegistry(dir).get('earning.birthday')?.schema).toEqual(loadRegistry(smallCopy()).get('earning.birthday')?.schema);
    expect(lintSchemas(dir, UI)).toEqual([
      { file: 'earning/birthday/schema.json', path: '', message: expect.stringMatching(/^extends no base: name one with "x-extends" \(schemas\/_bases\/: .*document.*\)/) },
    ]);
  });
});

describe('schemas:check and bases', () => {
  it('passes the repository bases and migrated templates (small copy)', () => {
    expect(lintSchemas(smallCopy(), UI)).toEqual([]);
  });

  it('flags a template field identical to its base\'s, a no-op override, and a repeated ui entry and required name', () => {
    const dir = smallCopy();
    const earning = readJson(dir, '_bases/earning.json');
    edit(dir, 'earning/birthday/schema.json', (s) => {
      (s.properties as Props).hasLimit = (earning.properties as Props).hasLimit as JsonObject;
      (s.properties as Props).customerEligibility = { default: 'all_members' };
      s.required = ['eligibleTiers'];
    });
    writeJson(dir, 'earning/birthday/ui.json', { earnPoint: { 'ui:widget': 'points' } });
    const issues = lintSchemas(dir, UI);
    expect(issues).toEqual([
      { file: 'earning/birthday/schema.json', path: '/properties/hasLimit', message: expect.stringContaining('identical to its base') },
      { file: 'earning/birthday/schema.json', path: '/properties/customerEligibility', message: expect.stringContaining('identical to its base') },
      { file: 'earning/birthday/schema.json', path: '/required/0', message: '"eligibleTiers" is required by the base already' },
      { file: 'earning/birthday/ui.json', path: '/earnPoint', message: expect.stringContaining('identical to its base') },
    ]);
  });

  it('allows an empty {} field that only places the template fields after it', () => {
    const dir = smallCopy();
    edit(dir, 'earning/birthday/schema.json', (s) => {
      s.properties = { ...(s.properties as Props), earnPointsLimit: {}, note: { type: 'string', title: 'Note', maxLength: 100 } };
    });
    // The label has no translation: the only issues are the missing translations of "Note".
    const issues = lintSchemas(dir, UI);
    expect(issues.every((i) => i.message.includes('"Note"'))).toBe(true);
    const kind = loadRegistry(dir).get('earning.birthday');
    const keys = Object.keys((kind?.schema.properties ?? {}) as JsonObject);
    expect(keys.indexOf('note')).toBe(keys.indexOf('earnPointsLimit') + 1);
  });

  it('reports an unknown base, a cycle of bases and a base breaking the base meta-schema', () => {
    const dir = smallCopy();
    edit(dir, 'earning/birthday/schema.json', (s) => {
      s['x-extends'] = 'earnings';
    });
    edit(dir, '_bases/program.json', (s) => {
      s['x-extends'] = 'social';
    });
    edit(dir, '_bases/referral-reward.json', (s) => {
      s.minimun = 1;
    });
    const issues = lintSchemas(dir, UI);
    expect(issues).toContainEqual({ file: 'earning/birthday/schema.json', path: '/x-extends', message: 'unknown base "earnings" (no _bases/earnings.json)' });
    expect(issues).toContainEqual(expect.objectContaining({ file: '_bases/program.json', path: '/x-extends', message: expect.stringContaining('cycle') }));
    expect(issues).toContainEqual(expect.objectContaining({ file: '_bases/referral-reward.json', message: expect.stringContaining('base meta-schema') }));
  });

  it('reports an x-omit naming a field no base has', () => {
    const dir = smallCopy();
    edit(dir, 'redeem/amount_discount/schema.json', (s) => {
      s['x-omit'] = ['nosuchfield'];
    });
    expect(lintSchemas(dir, UI)).toEqual([{ file: 'redeem/amount_discount/schema.json', path: '/x-omit/0', message: 'x-omit names "nosuchfield", which no base of this file has' }]);
  });

  it('rejects a malformed x-extends through the template meta-schema', () => {
    const dir = smallCopy();
    edit(dir, 'earning/birthday/schema.json', (s) => {
      s['x-extends'] = ['earning', 'earning'];
    });
    expect(lintSchemas(dir, UI)).toContainEqual(expect.objectContaining({ file: 'earning/birthday/schema.json', message: expect.stringContaining('template meta-schema') }));
  });

  it('makes `npm run schemas:check` exit 1 on a template field identical to its base\'s', () => {
    const dir = smallCopy();
    const social = readJson(dir, '_bases/earning.json');
    edit(dir, 'earning/follow_instagram/schema.json', (s) => {
      (s.properties as Props).limitInterval = (social.properties as Props).limitInterval as JsonObject;
    });
    const run = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts', 'schemas-check.ts'), dir], { cwd: ROOT, encoding: 'utf8' });
    expect(run.stdout).toContain('schemas/earning/follow_instagram/schema.json at /properties/limitInterval: the field "limitInterval" is identical to its base\'s');
    expect(run.stdout).toContain('schemas: 1 problem');
    expect(run.status).toBe(1);
  });
});
