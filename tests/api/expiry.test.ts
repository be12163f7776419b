/**
 * Point expiry (spec 002 §1, §9) through the daily job with a fixed clock: credits consumed oldest
 * first (FIFO) and recorded in the expiry entry, partial consumption, an idempotent re-run, the
 * store-timezone day boundary, and the 7-day and 3-day reminders recorded.
 */
import { describe, expect, it } from 'vitest';
import { makeApp, SHOP } from '../support/app';
import { orderBody, placeOrderData } from '../support/factories';
import { runDailyJob, runDueDailyJobs } from '../../server/services/expiry';
import { appendEntries } from '../../server/store/ledger';

const customer = { id: '7400000000000000001', email: 'grace@example.com', first_name: 'Grace', last_name: 'Hopper' };
type Entry = { id: string; type: string; points: number; sourceType: string; explanation: { consumed?: { creditId: string; points: number; earnedOn: string }[]; message?: string } };

/** A shop (America/New_York) earning 1 point per $1, whose points expire 30 days after they are earned. */
async function shop(expiry: Record<string, unknown> = {}) {
  let clock = new Date('2026-06-15T16:00:00Z');
  const t = await makeApp({ now: () => clock, shop: { settings: { pointExpiry: { enabled: true, afterValue: 30, afterUnit: 'day', reminderDaysBefore: [7, 3], ...expiry } } } });
  await t.call('POST', '/api/kinds/earning.place_order/docs', { data: placeOrderData({ earnPoint: 1, rateMoney: 1 }) });
  const at = (iso: string) => (clock = new Date(iso));
  const order = async (iso: string, dollars: number) => {
    at(iso);
    expect((await t.deliverOrder(orderBody({ customer, created_at: iso }, [{ price: `${dollars}.00` }]))).status).toBe(200);
  };
  /** A redemption of `points` at `iso` (as the redeem flow will write it). */
  const spend = async (iso: string, points: number) => {
    await t.db.transaction().execute((tx) =>
      appendEntries(tx, [{ id: crypto.randomUUID(), shop_id: SHOP, customer_id: customer.id, type: 'spend_point', points: -points, program_id: null, program_kind: null, program_version: null, source_type: 'redemption', source_id: crypto.randomUUID(), reverses_id: null, explanation: '{}', created_at: iso, available_at: null }]),
    );
  };
  const entries = async (): Promise<Entry[]> => ((await (await t.call('GET', `/api/customers/${customer.id}/activity?limit=50`)).json()) as { data: Entry[] }).data;
  const balance = async (): Promise<number> => (await t.db.selectFrom('customers').select('points_balance').where('shop_id', '=', SHOP).where('id', '=', customer.id).executeTakeFirstOrThrow()).points_balance;
  const orderCredits = async () => (await entries()).filter((e) => e.sourceType === 'order').reverse();
  return { ...t, order, spend, entries, balance, orderCredits, at };
}

describe('the daily expiry job', () => {
  it('expires the oldest credits first, partially consumed ones by what is left, and records which', async () => {
    const s = await shop();
    await s.order('2026-06-15T16:00:00Z', 100);
    await s.order('2026-06-20T16:00:00Z', 50);
    await s.spend('2026-06-25T16:00:00Z', 70);
    const [a, b] = await s.orderCredits();

    // 30 days after 15 June (store time): A's 100 points less the 70 spent from it.
    const first = await runDailyJob(s.db, SHOP, new Date('2026-07-15T12:00:00Z'));
    expect(first).toMatchObject({ runDate: '2026-07-15', ran: true, customersExpired: 1, pointsExpired: 30 });
    const expiry = (await s.entries()).find((e) => e.sourceType === 'expiry')!;
    expect(expiry).toMatchObject({ type: 'minus_point', points: -30 });
    expect(expiry.explanation.consumed).toEqual([{ creditId: a!.id, points: 30, earnedOn: '2026-06-15', expiresOn: '2026-07-15' }]);
    expect(expiry.explanation.message).toBe('30 points expired: 30 of the points earned on 2026-06-15 (points expire 30 days after they are earned).');
    expect(await s.balance()).toBe(50);

    const second = await runDailyJob(s.db, SHOP, new Date('2026-07-20T12:00:00Z'));
    expect(second).toMatchObject({ pointsExpired: 50 });
    const expiries = (await s.entries()).filter((e) => e.sourceType === 'expiry');
    expect(expiries[0]!.explanation.consumed).toEqual([{ creditId: b!.id, points: 50, earnedOn: '2026-06-20', expiresOn: '2026-07-20' }]);
    expect(await s.balance()).toBe(0);
  });

  it('takes the spending of points bought before expiry from the oldest credit, leaving the newer one whole', async () => {
    const s = await shop();
    await s.order('2026-06-15T16:00:00Z', 40);
    await s.order('2026-06-16T16:00:00Z', 60);
    await s.spend('2026-06-17T16:00:00Z', 50);
    const [, b] = await s.orderCredits();
    await runDailyJob(s.db, SHOP, new Date('2026-07-15T12:00:00Z'));
    expect(await s.balance()).toBe(50);
    const result = await runDailyJob(s.db, SHOP, new Date('2026-07-16T12:00:00Z'));
    expect(result.pointsExpired).toBe(50);
    expect((await s.entries()).find((e) => e.sourceType === 'expiry')!.explanation.consumed).toEqual([{ creditId: b!.id, points: 50, earnedOn: '2026-06-16', expiresOn: '2026-07-16' }]);
  });

  it('changes nothing when the same store-local day runs again, even after a crash mid-run', async () => {
    const s = await shop();
    await s.order('2026-06-15T16:00:00Z', 100);
    await runDailyJob(s.db, SHOP, new Date('2026-07-15T12:00:00Z'));
    expect(await runDailyJob(s.db, SHOP, new Date('2026-07-15T23:00:00Z'))).toMatchObject({ ran: false, pointsExpired: 0 });
    // As if the shop's run had not been marked finished: each customer's day is done already.
    await s.db.deleteFrom('point_expiry_shop_runs').execute();
    expect(await runDailyJob(s.db, SHOP, new Date('2026-07-15T23:30:00Z'))).toMatchObject({ ran: true, pointsExpired: 0 });
    expect((await s.entries()).filter((e) => e.sourceType === 'expiry')).toHaveLength(1);
    expect(await s.balance()).toBe(0);
  });

  it('runs at the store’s local day boundary, not UTC’s', async () => {
    const s = await shop();
    // 22:00 on 15 June in New York is already 16 June in UTC.
    await s.order('2026-06-16T02:00:00Z', 100);
    const before = await runDailyJob(s.db, SHOP, new Date('2026-07-15T03:59:00Z'));
    expect(before).toMatchObject({ runDate: '2026-07-14', pointsExpired: 0 });
    const after = await runDailyJob(s.db, SHOP, new Date('2026-07-15T04:01:00Z'));
    expect(after).toMatchObject({ runDate: '2026-07-15', pointsExpired: 100 });
  });

  it('expires a credit of 31 January on 28 February under a one-month rule, and catches up after missed days', async () => {
    const s = await shop({ afterValue: 1, afterUnit: 'month', reminderDaysBefore: [] });
    await s.order('2026-01-31T17:00:00Z', 100);
    expect(await runDailyJob(s.db, SHOP, new Date('2026-02-27T17:00:00Z'))).toMatchObject({ pointsExpired: 0 });
    expect(await runDailyJob(s.db, SHOP, new Date('2026-02-28T17:00:00Z'))).toMatchObject({ pointsExpired: 100 });

    const late = await shop({ afterValue: 1, afterUnit: 'month', reminderDaysBefore: [] });
    await late.order('2026-01-31T17:00:00Z', 80);
    await runDailyJob(late.db, SHOP, new Date('2026-02-10T17:00:00Z'));
    // No run between 11 February and 5 March (the server was down): the next one catches up.
    expect(await runDailyJob(late.db, SHOP, new Date('2026-03-05T17:00:00Z'))).toMatchObject({ runDate: '2026-03-05', pointsExpired: 80 });
  });

  it('records the 7-day and 3-day reminders once, with the points still due', async () => {
    const s = await shop();
    await s.order('2026-06-15T16:00:00Z', 100);
    await s.spend('2026-06-20T16:00:00Z', 25);
    await runDailyJob(s.db, SHOP, new Date('2026-07-08T12:00:00Z'));
    await runDailyJob(s.db, SHOP, new Date('2026-07-10T12:00:00Z'));
    await runDailyJob(s.db, SHOP, new Date('2026-07-12T12:00:00Z'));
    await s.db.deleteFrom('point_expiry_shop_runs').execute();
    await s.db.deleteFrom('point_expiry_runs').execute();
    await runDailyJob(s.db, SHOP, new Date('2026-07-12T13:00:00Z'));
    const reminders = await s.db.selectFrom('point_expiry_reminders').select(['customer_id', 'expires_on', 'days_before', 'points', 'due_on', 'sent_at']).orderBy('due_on').execute();
    expect(reminders).toEqual([
      { customer_id: customer.id, expires_on: '2026-07-15', days_before: 7, points: 75, due_on: '2026-07-08', sent_at: null },
      { customer_id: customer.id, expires_on: '2026-07-15', days_before: 3, points: 75, due_on: '2026-07-12', sent_at: null },
    ]);
  });

  it('does nothing while expiry is off, and the scheduler pass skips such shops', async () => {
    const s = await shop({ enabled: false });
    await s.order('2026-06-15T16:00:00Z', 100);
    expect(await runDueDailyJobs(s.db, new Date('2026-08-01T12:00:00Z'))).toEqual([]);
    expect(await runDailyJob(s.db, SHOP, new Date('2026-08-01T12:00:00Z'))).toMatchObject({ pointsExpired: 0 });
    expect(await s.balance()).toBe(100);
  });

  it('saves the rule through the API and refuses a bad one with field paths', async () => {
    const s = await shop();
    const bad = await s.call('PUT', '/api/points/expiry-settings', { enabled: true, afterValue: 0, afterUnit: 'hour' });
    expect(bad.status).toBe(422);
    expect(((await bad.json()) as { error: { details: { path: string }[] } }).error.details.map((d) => d.path)).toEqual(['/afterValue', '/afterUnit']);
    const ok = await s.call('PUT', '/api/points/expiry-settings', { enabled: true, afterValue: 6, afterUnit: 'month', reminderDaysBefore: [7] });
    expect(ok.status).toBe(200);
    expect(((await (await s.call('GET', '/api/points/expiry-settings')).json()) as { data: unknown }).data).toEqual({ enabled: true, afterValue: 6, afterUnit: 'month', reminderDaysBefore: [7] });
  });
});
