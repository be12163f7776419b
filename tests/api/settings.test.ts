/**
 * Settings sections (spec 002 §2 Settings, §3 exchange rate, revoke settings, point labels, §4
 * sandbox → live, §5 exchange rate > 0; issue 12): each section saves and reads back, validation
 * names the field, the engine reads the settings (a sandbox shop awards only test-list customers),
 * and the secret key is answered once and kept only as a hash.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, shopSettings } from '../../server/services/settings';
import { makeApp, repoRegistry, SHOP } from '../support/app';
import { orderBody, placeOrderData } from '../support/factories';

type Issue = { path: string; message: string };
const customer = (n: number) => ({ id: `${7300000000000000000n + BigInt(n)}`, email: `t${n}@example.com`, first_name: 'Tess', last_name: `T${n}` });

async function shop() {
  const t = await makeApp();
  const get = async (section: string) => ((await (await t.call('GET', `/api/settings/${section}`)).json()) as { data: Record<string, unknown> }).data;
  const put = (section: string, body: unknown) => t.call('PUT', `/api/settings/${section}`, body);
  const balance = async (n: number) => {
    const res = await t.call('GET', `/api/customers/${customer(n).id}`);
    return res.status === 404 ? null : ((await res.json()) as { data: { points: number } }).data.points;
  };
  return { ...t, get, put, balance };
}

describe('settings sections', () => {
  it('answers the defaults of a shop that never saved, the same the schema declares', async () => {
    const s = await shop();
    const all = ((await (await s.call('GET', '/api/settings')).json()) as { data: unknown; version: number });
    expect(all).toEqual({ data: DEFAULT_SETTINGS, version: 0 });
    const validated = repoRegistry().get('settings.shop')!.validate({});
    expect(validated.ok && validated.data).toEqual(JSON.parse(JSON.stringify(DEFAULT_SETTINGS)));
  });

  it('saves the point label, exchange rate and coupon self-revoke, and reads them back after a reload', async () => {
    const s = await shop();
    const general = { ...DEFAULT_SETTINGS.general, pointLabel: { singular: 'star', plural: 'stars', position: 'before' }, dateFormat: 'DD/MM/YYYY' };
    expect((await s.put('general', general)).status).toBe(200);
    const order = { ...DEFAULT_SETTINGS.order, exchangeRate: 2.5, couponRevoke: { enabled: true, timeLimitSeconds: 3600, limit: 3, timeframe: 'week' } };
    const saved = await s.put('order', order);
    expect(saved.status).toBe(200);
    expect(await saved.json()).toMatchObject({ data: { exchangeRate: 2.5 }, message: 'Settings saved' });
    // Saving one section leaves the other as it was.
    expect(await s.get('general')).toMatchObject({ pointLabel: { singular: 'star', plural: 'stars', position: 'before' }, dateFormat: 'DD/MM/YYYY' });
    expect(await s.get('order')).toMatchObject({ exchangeRate: 2.5, couponRevoke: { enabled: true, timeLimitSeconds: 3600, limit: 3, timeframe: 'week' } });
    // What other areas read (REDEEM's couponRevoke, STOREFRONT's point label).
    const read = await shopSettings(s.db, SHOP);
    expect(read.order.couponRevoke).toEqual({ enabled: true, timeLimitSeconds: 3600, limit: 3, timeframe: 'week' });
    expect(read.general.pointLabel.plural).toBe('stars');
  });

  it('refuses an exchange rate of 0 at its field path and keeps the saved one', async () => {
    const s = await shop();
    await s.put('order', { exchangeRate: 3 });
    const res = await s.put('order', { exchangeRate: 0 });
    expect(res.status).toBe(422);
    const body = (await res.json()) as { error: { code: string; details: Issue[] } };
    expect(body.error.code).toBe('validation_failed');
    expect(body.error.details).toContainEqual({ path: '/order/exchangeRate', message: 'Must be greater than 0' });
    expect(await s.get('order')).toMatchObject({ exchangeRate: 3 });
  });

  it('names each bad field of a section: an unknown revoke timeframe, a color that is not hex, an unknown field', async () => {
    const s = await shop();
    const revoke = (await (await s.put('order', { couponRevoke: { enabled: true, timeLimitSeconds: 30, limit: 1, timeframe: 'hour' } })).json()) as { error: { details: Issue[] } };
    expect(revoke.error.details).toEqual(
      expect.arrayContaining([
        { path: '/order/couponRevoke/timeframe', message: 'Value invalid' },
        { path: '/order/couponRevoke/timeLimitSeconds', message: 'Must be greater than or equal to 60' },
      ]),
    );
    const color = (await (await s.put('colors', { brand: 'blue' })).json()) as { error: { details: Issue[] } };
    expect(color.error.details).toContainEqual({ path: '/colors/brand', message: 'Value invalid' });
    expect((await s.put('email', { senderName: 'Shop', replyTo: 'not-an-email' })).status).toBe(422);
    expect((await s.put('developers', { deeplinks: true, webhookSecret: 'x' })).status).toBe(422);
  });

  it('keeps custom point labels to the Essential plan and above (spec 002 §6)', async () => {
    const t = await makeApp({ shop: { plan: 'free' } });
    const refused = await t.call('PUT', '/api/settings/general', { pointLabel: { singular: 'star', plural: 'stars', position: 'after' } });
    expect(refused.status).toBe(403);
    const body = (await refused.json()) as { error: { code: string; message: string; details: Issue[] } };
    expect(body.error.code).toBe('plan_gate');
    expect(body.error.message).toMatch(/Essential/);
    expect(body.error.details[0]!.path).toBe('/general/pointLabel');
    // Everything else in the section saves on any plan.
    expect((await t.call('PUT', '/api/settings/general', { appStatus: false, dateFormat: 'YYYY/MM/DD' })).status).toBe(200);
  });

  it('answers 404 for a section that does not exist', async () => {
    const s = await shop();
    expect((await s.call('GET', '/api/settings/nonsense')).status).toBe(404);
    expect((await s.put('nonsense', {})).status).toBe(404);
    // Pending points keep their own route.
    expect((await s.call('GET', '/api/settings/pending-points')).status).toBe(200);
  });
});

describe('sandbox mode', () => {
  it('awards only customers on the test list (by e-mail in any case or by id) while in sandbox', async () => {
    const s = await shop();
    await s.call('POST', '/api/kinds/earning.place_order/docs', { data: placeOrderData({ earnPoint: 1, rateMoney: 1 }) });
    expect((await s.put('prelaunch', { mode: 'sandbox', testCustomers: ['T1@Example.com', customer(2).id] })).status).toBe(200);

    const outsider = (await (await s.deliverOrder(orderBody({ id: 9001, customer: customer(3) }, [{ price: '40.00' }]))).json()) as { data: { pointsAwarded: number } };
    expect(outsider.data.pointsAwarded).toBe(0);
    expect(await s.balance(3)).toBe(0);
    const evaluation = (await (await s.call('GET', '/api/orders/9001/evaluation')).json()) as { data: { decisions: { outcome: string; message: string }[] } };
    expect(evaluation.data.decisions[0]).toMatchObject({ outcome: 'deny' });
    expect(evaluation.data.decisions[0]!.message).toMatch(/sandbox mode/);

    await s.deliverOrder(orderBody({ id: 9002, customer: customer(1) }, [{ price: '40.00' }]));
    await s.deliverOrder(orderBody({ id: 9003, customer: customer(2) }, [{ price: '25.00' }]));
    expect(await s.balance(1)).toBe(40);
    expect(await s.balance(2)).toBe(25);
  });

  it('goes live only after confirmation, then awards everyone', async () => {
    const s = await shop();
    await s.call('POST', '/api/kinds/earning.place_order/docs', { data: placeOrderData({ earnPoint: 1, rateMoney: 1 }) });
    await s.put('prelaunch', { mode: 'sandbox', testCustomers: [] });
    const unconfirmed = await s.put('prelaunch', { mode: 'live', testCustomers: [] });
    expect(unconfirmed.status).toBe(409);
    expect(((await unconfirmed.json()) as { error: { code: string } }).error.code).toBe('confirmation_required');
    expect(await s.get('prelaunch')).toMatchObject({ mode: 'sandbox' });
    expect((await s.put('prelaunch', { mode: 'live', testCustomers: [], confirm: true })).status).toBe(200);
    await s.deliverOrder(orderBody({ id: 9004, customer: customer(5) }, [{ price: '12.00' }]));
    expect(await s.balance(5)).toBe(12);
  });
});

describe('developer credentials', () => {
  it('answers a new secret key once and afterwards only its last 4 characters', async () => {
    const s = await shop();
    expect(((await (await s.call('GET', '/api/settings/developers/credentials')).json()) as { data: unknown }).data).toEqual({ appId: '', secretHint: null, createdAt: null });
    const first = (await (await s.call('POST', '/api/settings/developers/secret-key')).json()) as { data: { appId: string; secretKey: string; secretHint: string } };
    expect(first.data.secretKey).toMatch(/^[0-9a-f]{64}$/);
    expect(first.data.secretHint).toBe(first.data.secretKey.slice(-4));
    const second = (await (await s.call('POST', '/api/settings/developers/secret-key')).json()) as { data: { appId: string; secretKey: string } };
    expect(second.data.appId).toBe(first.data.appId);
    expect(second.data.secretKey).not.toBe(first.data.secretKey);
    const shown = (await (await s.call('GET', '/api/settings/developers/credentials')).json()) as { data: Record<string, unknown> };
    expect(shown.data).toMatchObject({ appId: first.data.appId, secretHint: second.data.secretKey.slice(-4) });
    expect(JSON.stringify(shown)).not.toContain(second.data.secretKey);
    const row = await s.db.selectFrom('app_credentials').selectAll().where('shop_id', '=', SHOP).executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(second.data.secretKey);
  });
});
