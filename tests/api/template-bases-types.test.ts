/**
 * Generated program types (issue 15): engine/generated/* is what `npm run schemas:types` makes
 * from the templates as served (merged onto their bases), so a template change that is not
 * followed by `npm run schemas:types` fails here.
 */
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateKindTypes, staleFiles } from '../../scripts/schemas-types';

const ROOT = join(import.meta.dirname, '..', '..');

describe('engine/generated (npm run schemas:types)', () => {
  it('is current with the templates', async () => {
    const files = await generateKindTypes(join(ROOT, 'schemas'));
    expect(files.size).toBeGreaterThanOrEqual(42);
    expect(staleFiles(files)).toEqual([]);
  });

  it('types a kind from its template merged onto its bases, and goes stale when the template changes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'types-'));
    cpSync(join(ROOT, 'schemas'), dir, { recursive: true });
    const file = join(dir, 'earning', 'follow_instagram', 'schema.json');
    const schema = JSON.parse(readFileSync(file, 'utf8')) as { required?: string[]; properties: Record<string, unknown> };
    schema.properties.handle = { type: 'string', title: 'Handle', maxLength: 30 };
    schema.required = ['handle'];
    writeFileSync(file, JSON.stringify(schema));
    const files = await generateKindTypes(dir);
    const text = files.get('earning.follow_instagram.ts') ?? '';
    // Base fields (program, earning, social) and the template's own, required ones without `?`.
    expect(text).toContain('export interface EarningFollowInstagram {');
    expect(text).toMatch(/\n {2}title: string;/);
    expect(text).toMatch(/\n {2}earnPoint: number;/);
    expect(text).toMatch(/\n {2}socialUrl\?: string;/);
    expect(text).toMatch(/\n {2}handle: string;/);
    expect(text).toContain("limitUnit: TimeUnit;");
    expect(staleFiles(files)).toEqual(['earning.follow_instagram.ts']);
  });
});
