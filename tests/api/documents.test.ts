import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeApp } from '../support/app';
import { placeOrderData } from '../support/factories';

describe('kinds', () => {
  it('lists every kind with its category and serves its schema and uiSchema', async () => {
    const { call } = await makeApp();
    const list = (await (await call('GET', '/api/kinds')).json()) as { data: { id: string; category: string }[] };
    expect(list.data.find((k) => k.id === 'earning.place_order')?.category).toBe('place_order');
    const detail = (await (await call('GET', '/api/kinds/earning.place_order')).json()) as { data: { schema: { properties: object }; uiSchema: object } };
    expect(detail.data.schema.properties).toHaveProperty('earnBy');
    expect(detail.data.uiSchema).toHaveProperty('earnPoint');
  });

  it('answers 404 unknown_kind for a kind that does not exist', async () => {
    const { call } = await makeApp();
    const res = await call('GET', '/api/kinds/earning.nope/docs');
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('unknown_kind');
  });
});

describe('documents', () => {
  it('creates with defaults applied, reads, updates with the version, and deletes', async () => {
    const { call } = await makeApp();
    const created = await call('POST', '/api/kinds/earning.place_order/docs', { data: { title: 'Spring orders' } });
    expect(created.status).toBe(201);
    const doc = ((await created.json()) as { data: { id: string; version: number; data: Record<string, unknown> } }).data;
    expect(doc.data).toMatchObject({ title: 'Spring orders', earnPoint: 10, rateMoney: 100, roundingMethod: 'roundingDown', status: true });

    const updated = await call('PUT', `/api/kinds/earning.place_order/docs/${doc.id}`, { version: 1, data: { ...doc.data, status: false } });
    expect(updated.status).toBe(200);
    expect(((await updated.json()) as { data: { version: number; data: { status: boolean } } }).data).toMatchObject({ version: 2, data: { status: false } });

    expect((await call('DELETE', `/api/kinds/earning.place_order/docs/${doc.id}`)).status).toBe(200);
    expect((await call('GET', `/api/kinds/earning.place_order/docs/${doc.id}`)).status).toBe(404);
  });

  it('refuses invalid data with 422 and a message on each field path, storing nothing', async () => {
    const { call } = await makeApp();
    const res = await call('POST', '/api/kinds/earning.place_order/docs', { data: placeOrderData({ title: '', rateMoney: 0, earnBy: 'weight' }) });
    expect(res.status).toBe(422);
    const body = (await res.json()) as { error: { code: string; details: { path: string; message: string }[] } };
    expect(body.error.code).toBe('validation_failed');
    expect(body.error.details).toEqual(
      expect.arrayContaining([
        { path: '/title', message: 'This field is required' },
        { path: '/rateMoney', message: 'Must be greater than 0' },
        { path: '/earnBy', message: 'Value invalid' },
      ]),
    );
    const list = (await (await call('GET', '/api/kinds/earning.place_order/docs')).json()) as { count: number };
    expect(list.count).toBe(0);
  });

  it('refuses a streak longer than its runtime with the spec message on the streak day', async () => {
    const { call } = await makeApp();
    const res = await call('POST', '/api/kinds/earning.streak_interact_website/docs', {
      data: { title: 'Streak', startDate: '2026-07-01', endDate: '2026-07-05', streakMilestones: [{ day: 7, earnPoint: 100 }] },
    });
    expect(res.status).toBe(422);
    expect(((await res.json()) as { error: { details: unknown[] } }).error.details).toEqual([
      { path: '/streakMilestones/0/day', message: 'Streak length cannot exceed program runtime (5 days)' },
    ]);
  });

  it('refuses an update from a stale version with 409 version_conflict', async () => {
    const { call } = await makeApp();
    const doc = ((await (await call('POST', '/api/kinds/earning.sign_up/docs', { data: { title: 'Join' } })).json()) as { data: { id: string; data: object } }).data;
    await call('PUT', `/api/kinds/earning.sign_up/docs/${doc.id}`, { version: 1, data: { ...doc.data, earnPoint: 200 } });
    const stale = await call('PUT', `/api/kinds/earning.sign_up/docs/${doc.id}`, { version: 1, data: { ...doc.data, earnPoint: 300 } });
    expect(stale.status).toBe(409);
    expect(((await stale.json()) as { error: { code: string } }).error.code).toBe('version_conflict');
  });

  it('answers 400 invalid_json for a body that is not JSON', async () => {
    const { call } = await makeApp();
    const res = await call('POST', '/api/kinds/earning.sign_up/docs', '{"data": ');
    expect(res.status).toBe(400);
  });

  it('keeps documents across a server restart on the same database file', async () => {
    const databasePath = join(mkdtempSync(join(tmpdir(), 'db-')), 'loyalty.sqlite');
    const first = await makeApp({ databasePath });
    await first.call('POST', '/api/kinds/earning.place_order/docs', { data: { title: 'Survives restarts' } });
    await first.db.destroy();
    const second = await makeApp({ databasePath });
    const list = (await (await second.call('GET', '/api/lp/programs/earning')).json()) as { data: { title: string; event: string; type: string }[] };
    expect(list.data).toEqual([expect.objectContaining({ title: 'Survives restarts', event: 'place_order', type: 'earning' })]);
  });
});

describe('program lists', () => {
  it('separates earning programs from spending (redeem) programs', async () => {
    const { call } = await makeApp();
    await call('POST', '/api/kinds/earning.sign_up/docs', { data: { title: 'Join us' } });
    await call('POST', '/api/kinds/redeem.amount_discount/docs', { data: { title: '$5 off' } });
    const earning = (await (await call('GET', '/api/lp/programs/earning')).json()) as { data: { title: string }[] };
    const spending = (await (await call('GET', '/api/lp/programs/spending')).json()) as { data: { title: string; type: string; status: boolean }[] };
    expect(earning.data.map((p) => p.title)).toEqual(['Join us']);
    expect(spending.data).toEqual([expect.objectContaining({ title: '$5 off', type: 'spending', status: false })]);
  });

  it('serves the shop and its platform info', async () => {
    const { call } = await makeApp();
    const body = (await (await call('GET', '/api/shops')).json()) as { shop: { domain: string }; shopInfo: { currency: string; ianaTimezone: string } };
    expect(body.shop.domain).toBe('test-shop.myshopify.com');
    expect(body.shopInfo).toMatchObject({ currency: 'USD', ianaTimezone: 'America/New_York' });
  });
});
