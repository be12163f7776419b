import { describe, expect, it } from 'vitest';
import { makeApp, SHOP } from '../support/app';
import { orderBody, placeOrderData } from '../support/factories';
import type { JsonObject } from '../../engine/types';

interface Doc {
  id: string;
  version: number;
  data: Record<string, unknown>;
}
interface Change {
  path: string;
  change: string;
  label: string;
  from: string;
  to: string;
  text: string;
}

const DOCS = '/api/kinds/earning.place_order/docs';

async function createProgram(call: (m: string, p: string, b?: unknown) => Promise<Response>, overrides: JsonObject = {}): Promise<Doc> {
  const res = await call('POST', DOCS, { data: placeOrderData(overrides) });
  expect(res.status).toBe(201);
  return ((await res.json()) as { data: Doc }).data;
}

async function save(call: (m: string, p: string, b?: unknown) => Promise<Response>, doc: Doc, data: Record<string, unknown>): Promise<Doc> {
  const res = await call('PUT', `${DOCS}/${doc.id}`, { version: doc.version, data: { ...doc.data, ...data } });
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: Doc }).data;
}

describe('document versions', () => {
  it('keeps every save as a version with its actor, in the save itself', async () => {
    const { call, db } = await makeApp();
    const v1 = await createProgram(call, { title: 'Spring orders' });
    const v2 = await save(call, v1, { earnPoint: 15 });
    await save(call, v2, { status: false });
    const res = await call('GET', `/api/documents/${v1.id}/versions`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { data: { version: number; actor: string; current: boolean; kind: string }[]; document: Doc; count: number };
    expect(body.data.map((v) => v.version)).toEqual([3, 2, 1]);
    expect(body.data.map((v) => v.current)).toEqual([true, false, false]);
    expect(body.data[0]).toMatchObject({ actor: '1', kind: 'earning.place_order' });
    expect(body.document.version).toBe(3);
    const rows = await db.selectFrom('document_versions').select(['version', 'data']).where('shop_id', '=', SHOP).where('document_id', '=', v1.id).orderBy('version').execute();
    expect(rows.map((r) => (JSON.parse(r.data) as { earnPoint: number }).earnPoint)).toEqual([10, 15, 15]);

    const one = await call('GET', `/api/documents/${v1.id}/versions/2`);
    expect(((await one.json()) as { data: { data: { earnPoint: number; status: boolean } } }).data.data).toMatchObject({ earnPoint: 15, status: true });
    expect((await call('GET', `/api/documents/${v1.id}/versions/9`)).status).toBe(404);
    expect((await call('GET', '/api/documents/nope/versions')).status).toBe(404);
  });

  it('keeps no version when the save is refused', async () => {
    const { call, db } = await makeApp();
    const v1 = await createProgram(call);
    const bad = await call('PUT', `${DOCS}/${v1.id}`, { version: 1, data: { ...v1.data, earnPoint: -1 } });
    expect(bad.status).toBe(422);
    const stale = await call('PUT', `${DOCS}/${v1.id}`, { version: 7, data: v1.data });
    expect(stale.status).toBe(409);
    const count = await db.selectFrom('document_versions').select((eb) => eb.fn.countAll<number>().as('n')).where('document_id', '=', v1.id).executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(1);
  });

  it('diffs two versions in words, labels in the admin language, nested and array fields named', async () => {
    const { call } = await makeApp();
    const v1 = await createProgram(call, { title: 'Spring orders' });
    const v2 = await save(call, v1, {
      earnPoint: 15,
      roundingMethod: 'roundingUp',
      earnPointTax: true,
      statusUseCondition: true,
      conditions: [{ field: 'product.vendor', typeMatch: 'equal', content: 'Acme' }],
    });
    await save(call, v2, { conditions: [{ field: 'product.vendor', typeMatch: 'equal', content: 'Globex' }] });

    const en = (await (await call('GET', `/api/documents/${v1.id}/diff?from=1&to=2`)).json()) as { data: { changes: Change[] } };
    const texts = en.data.changes.map((c) => c.text);
    expect(texts).toContain('Points earned: 10 → 15');
    expect(texts).toContain('Rounding: Round down → Round up');
    expect(texts).toContain('Earn points on taxes: No → Yes');
    const earn = en.data.changes.find((c) => c.path === '/earnPoint');
    expect(earn).toMatchObject({ change: 'changed', label: 'Points earned', from: '10', to: '15' });
    const added = en.data.changes.find((c) => c.path.startsWith('/conditions'));
    expect(added?.change).toBe('added');
    expect(added?.text).not.toContain('{');

    const arrays = (await (await call('GET', `/api/documents/${v1.id}/diff?from=2&to=3`)).json()) as { data: { changes: Change[] } };
    expect(arrays.data.changes).toHaveLength(1);
    const only = arrays.data.changes[0]!;
    expect(only.path).toBe('/conditions/0/content');
    expect(only.label).toMatch(/ › item 1 › /);
    expect(only.text).toMatch(/: Acme → Globex$/);

    const fr = (await (await call('GET', `/api/documents/${v1.id}/diff?from=1&to=2&language=fr`)).json()) as { data: { language: string; changes: Change[] } };
    expect(fr.data.language).toBe('fr');
    const frEarn = fr.data.changes.find((c) => c.path === '/earnPoint');
    expect(frEarn?.label).not.toBe('Points earned');
    expect(frEarn?.text).toMatch(/: 10 → 15$/);
    expect(fr.data.changes.find((c) => c.path === '/earnPointTax')?.text).toMatch(/Non → Oui$/);

    expect((await call('GET', `/api/documents/${v1.id}/diff?from=1&to=x`)).status).toBe(400);
    expect((await call('GET', `/api/documents/${v1.id}/diff?from=1&to=2&language=xx`)).status).toBe(400);
  });

  it('rolls back by saving the old data as a new version', async () => {
    const { call } = await makeApp();
    const v1 = await createProgram(call);
    const v2 = await save(call, v1, { earnPoint: 25 });
    const res = await call('POST', `/api/documents/${v1.id}/rollback`, { version: 1, expectedVersion: v2.version });
    expect(res.status).toBe(200);
    const doc = ((await res.json()) as { data: Doc }).data;
    expect(doc).toMatchObject({ version: 3, data: { earnPoint: 10 } });
    const read = ((await (await call('GET', `${DOCS}/${v1.id}`)).json()) as { data: Doc }).data;
    expect(read).toMatchObject({ version: 3, data: { earnPoint: 10 } });
    const diff = (await (await call('GET', `/api/documents/${v1.id}/diff?from=2&to=3`)).json()) as { data: { changes: Change[] } };
    expect(diff.data.changes.map((c) => c.text)).toEqual(['Points earned: 25 → 10']);
  });

  it('refuses a rollback as a save is refused: stale version, limits, invalid old data', async () => {
    const { call, db } = await makeApp();
    const a1 = await createProgram(call, { title: 'A', priorityPlaceOrder: 1 });
    const a2 = await save(call, a1, { priorityPlaceOrder: 5 });
    await createProgram(call, { title: 'B', priorityPlaceOrder: 1 });

    const stale = await call('POST', `/api/documents/${a1.id}/rollback`, { version: 1, expectedVersion: 1 });
    expect(stale.status).toBe(409);
    expect(((await stale.json()) as { error: { code: string } }).error.code).toBe('version_conflict');

    const taken = await call('POST', `/api/documents/${a1.id}/rollback`, { version: 1, expectedVersion: a2.version });
    expect(taken.status).toBe(409);
    expect(((await taken.json()) as { error: { code: string } }).error.code).toMatch(/^limit\./);

    // A version kept under an older template that today's template refuses.
    await db
      .insertInto('document_versions')
      .values({ shop_id: SHOP, document_id: a1.id, version: 99, kind: 'earning.place_order', schema_version: 1, data: JSON.stringify({ ...a2.data, earnPoint: -5 }), actor: 'system', created_at: new Date().toISOString() })
      .execute();
    const invalid = await call('POST', `/api/documents/${a1.id}/rollback`, { version: 99 });
    expect(invalid.status).toBe(422);
    const issue = ((await invalid.json()) as { error: { details: { path: string }[] } }).error.details[0];
    expect(issue?.path).toBe('/earnPoint');

    expect((await call('POST', `/api/documents/${a1.id}/rollback`, { version: 2 })).status).toBe(409);
    expect((await call('POST', `/api/documents/${a1.id}/rollback`, {})).status).toBe(422);
    const unchanged = ((await (await call('GET', `${DOCS}/${a1.id}`)).json()) as { data: Doc }).data;
    expect(unchanged).toMatchObject({ version: 2, data: { priorityPlaceOrder: 5 } });
  });

  it('ledger entries of an order name the program version that awarded them', async () => {
    const { call, deliverOrder, db } = await makeApp();
    const v1 = await createProgram(call);
    await save(call, v1, { earnPoint: 20 });
    expect((await deliverOrder(orderBody())).status).toBe(200);
    const entry = await db.selectFrom('ledger_entries').select(['program_id', 'program_version', 'points']).where('shop_id', '=', SHOP).where('source_type', '=', 'order').executeTakeFirstOrThrow();
    expect(entry).toMatchObject({ program_id: v1.id, program_version: 2, points: 20 });
  });
});
