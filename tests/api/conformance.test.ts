/**
 * Conformance over every kind found in schemas/ (STYLE.md habit 4): each kind has fixtures under
 * fixtures/kinds/<kind>/; `valid-*` documents pass and round-trip through the API unchanged
 * (except write-only secrets, which come back masked),
 * `invalid-*` documents are refused with exactly the field issues they name. A new template is
 * covered the moment it lands (and fails here until it brings fixtures).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { redactWriteOnly } from '../../engine/write-only';
import { makeApp, repoRegistry, ROOT } from '../support/app';

const fixturesDir = (kind: string) => join(ROOT, 'fixtures', 'kinds', kind);
const fixtures = (kind: string, prefix: 'valid-' | 'invalid-') =>
  existsSync(fixturesDir(kind)) ? readdirSync(fixturesDir(kind)).filter((f) => f.startsWith(prefix) && f.endsWith('.json')).sort() : [];
const read = (kind: string, file: string) => JSON.parse(readFileSync(join(fixturesDir(kind), file), 'utf8')) as Record<string, unknown>;

describe.each(repoRegistry().kinds.map((k) => k.id))('kind %s', (kind) => {
  it('has valid and invalid fixtures', () => {
    expect(fixtures(kind, 'valid-').length).toBeGreaterThan(0);
    expect(fixtures(kind, 'invalid-').length).toBeGreaterThan(0);
  });

  it.each(fixtures(kind, 'valid-'))('%s is accepted and round-trips through the API', async (file) => {
    const { call } = await makeApp();
    const data = read(kind, file);
    const created = await call('POST', `/api/kinds/${kind}/docs`, { data });
    expect(created.status, JSON.stringify(await created.clone().json())).toBe(201);
    const doc = ((await created.json()) as { data: { id: string; data: Record<string, unknown> } }).data;
    expect(doc.data).toMatchObject(redactWriteOnly(data as never, repoRegistry().get(kind)?.writeOnly ?? []));
    const fetched = (await (await call('GET', `/api/kinds/${kind}/docs/${doc.id}`)).json()) as { data: { data: unknown } };
    expect(fetched.data.data).toEqual(doc.data);
  });

  it.each(fixtures(kind, 'invalid-'))('%s is refused with its field issues', async (file) => {
    const { call } = await makeApp();
    const { data, errors } = read(kind, file) as { data: unknown; errors: { path: string; message: string }[] };
    const res = await call('POST', `/api/kinds/${kind}/docs`, { data });
    expect(res.status).toBe(422);
    const body = (await res.json()) as { error: { details: unknown[] } };
    expect(body.error.details).toEqual(expect.arrayContaining(errors));
  });
});
