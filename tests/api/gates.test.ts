import { describe, expect, it } from 'vitest';
import { makeApp } from '../support/app';

type ErrorBody = { error: { code: string; message: string } };
const milestone = { title: 'Loyal customers', status: true };

describe('plan gates on documents (spec 002 §6)', () => {
  it('refuses a milestone program on Essential with 403 plan_gate naming Advanced', async () => {
    const { call } = await makeApp({ shop: { plan: 'pro_3_2025' } });
    const res = await call('POST', '/api/kinds/earning.milestone/docs', { data: milestone });
    expect(res.status).toBe(403);
    const body = (await res.json()) as ErrorBody;
    expect(body.error.code).toBe('plan_gate');
    expect(body.error.message).toContain('available on the Advanced plan');
  });

  it('allows the same program on Advanced', async () => {
    const { call } = await makeApp({ shop: { plan: 'advanced_2025' } });
    expect((await call('POST', '/api/kinds/earning.milestone/docs', { data: milestone })).status).toBe(201);
  });

  it('lets a per-shop custom feature unlock a gated kind', async () => {
    const { call } = await makeApp({ shop: { plan: 'free', settings: { customFeatures: ['milestone'] } } });
    expect((await call('POST', '/api/kinds/earning.milestone/docs', { data: milestone })).status).toBe(201);
  });

  it('refuses paid-only programs on the free plan but not free ones', async () => {
    const { call } = await makeApp({ shop: { plan: 'free' } });
    expect((await call('POST', '/api/kinds/earning.birthday/docs', { data: { title: 'Birthday' } })).status).toBe(403);
    expect((await call('POST', '/api/kinds/earning.sign_up/docs', { data: { title: 'Sign up' } })).status).toBe(201);
  });

  it('tells the add menu which kinds the plan allows, with the unlocking plan', async () => {
    const { call } = await makeApp({ shop: { plan: 'free' } });
    const body = (await (await call('GET', '/api/kinds')).json()) as { data: { id: string; gate: { allowed: boolean; unlockPlan: string | null } | null }[] };
    const byId = new Map(body.data.map((k) => [k.id, k.gate]));
    expect(byId.get('earning.place_order')).toBeNull();
    expect(byId.get('earning.milestone')).toMatchObject({ allowed: false, unlockPlan: 'Advanced' });
    expect(byId.get('earning.write_review')).toMatchObject({ allowed: false, unlockPlan: 'Essential' });
  });

  it('answers every gate for the shop', async () => {
    const { call } = await makeApp({ shop: { plan: 'advanced_2025', settings: { shopifyPlan: 'basic' } } });
    const body = (await (await call('GET', '/api/gates')).json()) as { data: { feature: string; allowed: boolean }[] };
    const allowed = new Map(body.data.map((g) => [g.feature, g.allowed]));
    expect(allowed.get('milestone')).toBe(true);
    expect(allowed.get('pos_pro')).toBe(false);
    expect(allowed.get('partner_tier')).toBe(false);
  });
});

describe('after a downgrade', () => {
  it('a gated program can be edited while off but not switched back on', async () => {
    const { call, db } = await makeApp({ shop: { plan: 'advanced_2025' } });
    const doc = ((await (await call('POST', '/api/kinds/earning.milestone/docs', { data: { ...milestone, status: false } })).json()) as { data: { id: string; data: Record<string, unknown> } }).data;
    await db.updateTable('shops').set({ plan: 'pro_3_2025' }).execute();
    const edited = await call('PUT', `/api/kinds/earning.milestone/docs/${doc.id}`, { version: 1, data: { ...doc.data, title: 'Renamed' } });
    expect(edited.status).toBe(200);
    const switchedOn = await call('PUT', `/api/kinds/earning.milestone/docs/${doc.id}`, { version: 2, data: { ...doc.data, title: 'Renamed', status: true } });
    expect(switchedOn.status).toBe(403);
  });
});
