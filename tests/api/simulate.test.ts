import { describe, expect, it } from 'vitest';
import { makeApp, SHOP } from '../support/app';
import { orderBody, placeOrderData } from '../support/factories';
import { normalizeOrder } from '../../engine/order';
import { packFacts, unpackFacts } from '../../server/services/simulate';

interface Doc {
  id: string;
  version: number;
  data: Record<string, unknown>;
}
interface Decision {
  programId: string;
  programTitle: string;
  outcome: string;
  points: number;
  message: string;
}
interface Preview {
  windowDays: number;
  ordersReplayed: number;
  awardedPoints: number;
  pointsBefore: number;
  pointsAfter: number;
  pointsDelta: number;
  ordersChanged: number;
  customersAffected: number;
  currency: string;
  exchangeRate: number;
  costBeforeMinor: number;
  costAfterMinor: number;
  costDeltaMinor: number;
  changedOrders: { orderId: string; orderName: string; before: { points: number; decisions: Decision[] }; after: { points: number; decisions: Decision[] } }[];
  timings: { loadMs: number; replayMs: number; totalMs: number };
}

const DOCS = '/api/kinds/earning.place_order/docs';
const NOW = new Date('2026-06-20T12:00:00Z');
const customer = (n: number) => ({ id: `${6000000000000000100n + BigInt(n)}`, email: `c${n}@example.com`, first_name: 'C', last_name: String(n), tags: '', orders_count: 1, total_spent: '0.00' });

/** A shop with a 10-per-$100 program, a fixed 5-point bonus program, and three stored orders ($100 and $250 in June, $100 in April). */
async function shopWithOrders() {
  const t = await makeApp({ now: () => NOW });
  const created = await t.call('POST', DOCS, { data: placeOrderData({ title: 'Ten per hundred' }) });
  const program = ((await created.json()) as { data: Doc }).data;
  expect((await t.call('POST', DOCS, { data: placeOrderData({ title: 'Bonus', earnBy: 'fixed_order', earnPoint: 5 }) })).status).toBe(201);
  const orders = [
    orderBody({ customer: customer(1), created_at: '2026-06-10T10:00:00-04:00' }, [{ price: '100.00' }]),
    orderBody({ customer: customer(2), created_at: '2026-06-15T10:00:00-04:00', subtotal_price: '250.00', total_price: '260.00' }, [{ price: '250.00' }]),
    orderBody({ customer: customer(3), created_at: '2026-04-01T10:00:00-04:00' }, [{ price: '100.00' }]),
  ];
  for (const o of orders) expect((await t.deliverOrder(o)).status).toBe(200);
  return { ...t, program, orders };
}

describe('POST /api/programs/simulate', () => {
  it('replays the stored orders of 30 days with the draft beside the other programs', async () => {
    const { call, program, orders, db } = await shopWithOrders();
    const kept = await db.selectFrom('order_facts').select(['order_id', 'awarded_points']).where('shop_id', '=', SHOP).orderBy('placed_at').execute();
    expect(kept.map((k) => Number(k.awarded_points))).toEqual([15, 15, 30]);

    const res = await call('POST', '/api/programs/simulate', { id: program.id, windowDays: 30, data: { ...program.data, earnPoint: 15 } });
    expect(res.status).toBe(200);
    const p = ((await res.json()) as { data: Preview }).data;
    // Before: 10 + 25 from the rate, 5 + 5 from the bonus. After: 15 + 37 (37.5 rounded down) + 10.
    expect(p).toMatchObject({ windowDays: 30, ordersReplayed: 2, awardedPoints: 45, pointsBefore: 45, pointsAfter: 62, pointsDelta: 17, ordersChanged: 2, customersAffected: 2 });
    // Exchange rate 1 point per dollar (the settings' default): cost in cents.
    expect(p).toMatchObject({ currency: 'USD', exchangeRate: 1, costBeforeMinor: 4500, costAfterMinor: 6200, costDeltaMinor: 1700 });
    expect(p.changedOrders.map((o) => o.orderId)).toEqual([String(orders[1]!.id), String(orders[0]!.id)]);
    const biggest = p.changedOrders[0]!;
    expect(biggest.before.points).toBe(30);
    expect(biggest.after.points).toBe(42);
    const mine = (d: Decision[]) => d.find((x) => x.programId === program.id);
    expect(mine(biggest.before.decisions)).toMatchObject({ outcome: 'award', points: 25 });
    expect(mine(biggest.after.decisions)).toMatchObject({ outcome: 'award', points: 37 });
    expect(mine(biggest.after.decisions)?.message).toContain('Ten per hundred');
    expect(biggest.after.decisions.find((d) => d.programTitle === 'Bonus')).toMatchObject({ points: 5 });
  });

  it('reaches back 90 days when asked, and previews a new program added to the saved ones', async () => {
    const { call } = await shopWithOrders();
    const res = await call('POST', '/api/programs/simulate', { windowDays: 90, data: placeOrderData({ title: 'Flat ten', earnBy: 'fixed_order', earnPoint: 10 }) });
    expect(res.status).toBe(200);
    const p = ((await res.json()) as { data: Preview }).data;
    expect(p).toMatchObject({ ordersReplayed: 3, pointsBefore: 60, pointsAfter: 90, ordersChanged: 3, customersAffected: 3 });
    expect(p.changedOrders[0]?.after.decisions.find((d) => d.programTitle === 'Flat ten')).toMatchObject({ outcome: 'award', points: 10 });
  });

  it('answers no change for a draft equal to the saved program, and zero orders for an empty shop', async () => {
    const { call, program } = await shopWithOrders();
    const same = ((await (await call('POST', '/api/programs/simulate', { id: program.id, windowDays: 30, data: program.data })).json()) as { data: Preview }).data;
    expect(same).toMatchObject({ ordersReplayed: 2, pointsDelta: 0, ordersChanged: 0, customersAffected: 0, changedOrders: [] });

    const empty = await makeApp({ now: () => NOW });
    const none = ((await (await empty.call('POST', '/api/programs/simulate', { data: placeOrderData() })).json()) as { data: Preview }).data;
    expect(none).toMatchObject({ windowDays: 30, ordersReplayed: 0, pointsBefore: 0, pointsAfter: 0, changedOrders: [] });
  });

  it('switching the draft off takes its points out of the preview', async () => {
    const { call, program } = await shopWithOrders();
    const p = ((await (await call('POST', '/api/programs/simulate', { id: program.id, windowDays: 30, data: { ...program.data, status: false } })).json()) as { data: Preview }).data;
    expect(p).toMatchObject({ pointsBefore: 45, pointsAfter: 10, pointsDelta: -35 });
    expect(p.changedOrders[0]?.after.decisions.find((d) => d.programId === program.id)).toMatchObject({ outcome: 'deny', points: 0 });
  });

  it('refuses a bad draft, window or id with the field path', async () => {
    const { call, program } = await shopWithOrders();
    const bad = await call('POST', '/api/programs/simulate', { id: program.id, data: { ...program.data, earnPoint: -3 } });
    expect(bad.status).toBe(422);
    expect(((await bad.json()) as { error: { details: { path: string }[] } }).error.details.map((d) => d.path)).toContain('/data/earnPoint');
    const window = await call('POST', '/api/programs/simulate', { data: program.data, windowDays: 45 });
    expect(window.status).toBe(422);
    expect(((await window.json()) as { error: { details: { path: string }[] } }).error.details[0]?.path).toBe('/windowDays');
    expect((await call('POST', '/api/programs/simulate', { id: 'nope', data: program.data })).status).toBe(404);
  });

  it('stores order facts packed, products apart, and unpacks them to the same facts', () => {
    const facts = normalizeOrder(orderBody({ tags: 'spring, sale', taxes_included: true, test: true }, [{ price: '12.50', quantity: 2, gift_card: true, tags: 'new' }, { selling_plan_allocation: { id: 1 } }]), 'EUR');
    const { packed, products } = packFacts(facts);
    expect(products.size).toBe(2);
    const again = unpackFacts(JSON.parse(JSON.stringify(packed)) as unknown[], new Map([...products].map(([k, v]) => [k, JSON.parse(v) as unknown[]])));
    expect(again).toEqual(facts);
    expect(Object.keys(again)).toEqual(Object.keys(facts));
    expect(Object.keys(again.lines[0]!)).toEqual(Object.keys(facts.lines[0]!));
    expect(again.currencyMismatch).toEqual({ orderCurrency: 'USD', shopCurrency: 'EUR' });
  });

  it('keeps one product record for the lines of many orders', async () => {
    const { db } = await shopWithOrders();
    const products = await db.selectFrom('order_line_products').select('key').where('shop_id', '=', SHOP).execute();
    // Three orders: two $100.00 lines of the same product, one $250.00 line.
    expect(products).toHaveLength(2);
    expect(() => unpackFacts([2, 'x', '', '', 'USD', 2, 0, '', 'web', [], [], 0, 0, 0, 0, 0, 1, [['l', 'missing', 1, 0, 0, 0]], null, null], new Map())).toThrow(TypeError);
  });
});
