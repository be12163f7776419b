import { cpSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadRegistry, pointerOfKey, SchemaError } from '../../engine/registry';
import { listTemplates } from '../../engine/template-loader';
import { ROOT } from '../support/app';

/** A copy of the repository's schemas/ in a temp folder, to add or break templates in. */
function schemasCopy(): string {
  const dir = mkdtempSync(join(tmpdir(), 'schemas-'));
  cpSync(join(ROOT, 'schemas'), dir, { recursive: true });
  return dir;
}

const minimalTemplate = (family: string, name: string, extra: Record<string, unknown> = {}) => ({
  $schema: 'http://json-schema.org/draft-07/schema#',
  title: 'Follow on Threads',
  description: 'Customers earn points for following the shop.',
  type: 'object',
  additionalProperties: false,
  'x-kind': `${family}.${name}`,
  'x-family': family,
  'x-name': name,
  'x-version': 1,
  'x-category': 'social',
  'x-feature': null,
  required: ['title', 'earnPoint'],
  properties: { title: { type: 'string', default: 'Follow us' }, earnPoint: { type: 'integer', exclusiveMinimum: 0, default: 50 } },
  ...extra,
});

describe('kind registry', () => {
  it('finds one kind per template folder, the walking-skeleton kinds among them', () => {
    const ids = loadRegistry(join(ROOT, 'schemas')).kinds.map((k) => k.id);
    const folders = listTemplates(join(ROOT, 'schemas')).map((t) => t.id);
    expect([...ids].sort()).toEqual(folders.sort());
    expect(ids).toEqual(expect.arrayContaining(['earning.place_order', 'earning.sign_up', 'earning.streak_interact_website', 'redeem.amount_discount', 'redeem.percentage_discount']));
  });

  it('bundles shared parts as local definitions so a browser form can resolve them', () => {
    const kind = loadRegistry(join(ROOT, 'schemas')).get('earning.place_order')!;
    const text = JSON.stringify(kind.schema);
    expect(text).not.toContain('_shared/');
    expect(kind.schema.definitions).toHaveProperty('condition');
  });

  it('discovers a template dropped into a new folder, with no code change', () => {
    const dir = schemasCopy();
    mkdirSync(join(dir, 'earning', 'follow_threads'));
    writeFileSync(join(dir, 'earning', 'follow_threads', 'schema.json'), JSON.stringify(minimalTemplate('earning', 'follow_threads')));
    const kind = loadRegistry(dir).get('earning.follow_threads');
    expect(kind?.category).toBe('social');
    expect(kind?.validate({ title: 'x', earnPoint: 0 })).toEqual({ ok: false, issues: [{ path: '/earnPoint', message: 'Must be greater than 0' }] });
  });

  it('rejects a keyword typo such as minimun, naming the file', () => {
    const dir = schemasCopy();
    mkdirSync(join(dir, 'earning', 'typo'));
    const broken = minimalTemplate('earning', 'typo', { properties: { title: { type: 'string', minimun: 1 }, earnPoint: { type: 'integer' } } });
    writeFileSync(join(dir, 'earning', 'typo', 'schema.json'), JSON.stringify(broken));
    expect(() => loadRegistry(dir)).toThrow(SchemaError);
    expect(() => loadRegistry(dir)).toThrow(/earning\/typo\/schema\.json.*minimun/);
  });

  it('rejects a template whose x-kind does not match its folder, with the path', () => {
    const dir = schemasCopy();
    mkdirSync(join(dir, 'earning', 'moved'));
    writeFileSync(join(dir, 'earning', 'moved', 'schema.json'), JSON.stringify(minimalTemplate('earning', 'elsewhere')));
    expect(() => loadRegistry(dir)).toThrow(/earning\/moved\/schema\.json at \/x-kind/);
  });

  it('rejects a template missing the meta-schema fields, with the path', () => {
    const dir = schemasCopy();
    mkdirSync(join(dir, 'earning', 'bare'));
    const { description: _d, ...noDescription } = minimalTemplate('earning', 'bare');
    writeFileSync(join(dir, 'earning', 'bare', 'schema.json'), JSON.stringify(noDescription));
    expect(() => loadRegistry(dir)).toThrow(/earning\/bare\/schema\.json at \/description: .*This field is required/);
  });
});

describe('pointerOfKey', () => {
  it('finds a member at any depth, through arrays, with RFC 6901 escaping', () => {
    expect(pointerOfKey({ properties: { a: { minimun: 1 } } }, 'minimun')).toBe('/properties/a/minimun');
    expect(pointerOfKey({ oneOf: [{ const: 'x' }, { 'x/y': { typo: true } }] }, 'typo')).toBe('/oneOf/1/x~1y/typo');
    expect(pointerOfKey({ properties: {} }, 'minimun')).toBeUndefined();
  });
});
