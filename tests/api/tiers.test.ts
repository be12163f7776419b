/**
 * VIP tiers that place customers (issue 10; spec 002 §4, §8): promotion when an order crosses a
 * requirement, demotion after inactivity on the daily job's fixed clock, manual exclusive tiers and
 * the refused points adjustment, deactivation refused while a program uses a tier, launch and
 * relaunch, and the tier's points multiplier stated in the award's explanation.
 */
import { describe, expect, it } from 'vitest';
import { makeApp, SHOP } from '../support/app';
import { orderBody, placeOrderData } from '../support/factories';
import { runDailyJob } from '../../server/services/expiry';

type TierView = {
  tierId: string | null;
  tierName: string | null;
  manual: boolean;
  stats: { tierPoints: number; amountSpentMinor: number; orders: number };
  assessment: { tierId: string | null; explanation: { seen: number; required: number; next: { tierName: string; remaining: number } | null; message: string } };
  changes: { from: string | null; to: string | null; toName: string | null; reason: string; explanation: string; actor: string; createdAt: string }[];
};
type Issue = { path: string; message: string };

const customer = { id: '7300000000000000001', email: 'ada@example.com', first_name: 'Ada', last_name: 'Lovelace' };
const tierData = (name: string, entryRequirement: number, extra: Record<string, unknown> = {}) => ({ name, entryMethod: 'points_earned', entryRequirement, ...extra });

/** A shop earning 1 point per $1 with tiers Member (0) and Silver (150 points), on a clock the test moves. */
async function shop(options: { settings?: Record<string, unknown>; tiers?: Record<string, unknown>[] } = {}) {
  let clock = new Date('2026-06-15T16:00:00Z');
  const t = await makeApp({ now: () => clock });
  const post = async (kind: string, data: Record<string, unknown>): Promise<string> => {
    const res = await t.call('POST', `/api/kinds/${kind}/docs`, { data });
    expect(res.status, JSON.stringify(await res.clone().json())).toBe(201);
    return ((await res.json()) as { data: { id: string } }).data.id;
  };
  const program = await post('earning.place_order', placeOrderData({ earnPoint: 1, rateMoney: 1 }));
  const ids: Record<string, string> = {};
  for (const data of options.tiers ?? [tierData('Member', 0), tierData('Silver', 150)]) ids[data.name as string] = await post('tier.tier', data);
  await post('tier.settings', { general: { status: true, entryMethod: 'points_earned' }, ...(options.settings ?? {}) });
  /** An order of one line at `dollars`, a minute after whatever happened before (events order by time). */
  const order = (dollars: number) => {
    clock = new Date(clock.getTime() + 60_000);
    return t.deliverOrder(orderBody({ customer, created_at: clock.toISOString() }, [{ price: `${dollars}.00` }]));
  };
  const tier = async (): Promise<TierView> => {
    const res = await t.call('GET', `/api/customers/${customer.id}/tier`);
    expect(res.status).toBe(200);
    return ((await res.json()) as { data: TierView }).data;
  };
  return { ...t, ids, program, order, tier, setClock: (iso: string) => (clock = new Date(iso)), now: () => clock, post };
}

describe('promotion', () => {
  it('places nobody before launch, then promotes when an order crosses a requirement', async () => {
    const s = await shop();
    await s.order(100);
    expect((await s.tier()).tierId).toBeNull();
    expect((await s.tier()).stats).toEqual({ tierPoints: 100, amountSpentMinor: 10000, orders: 1 });

    const launch = await s.call('POST', '/api/tiers/launch', { changeNotes: 'First launch' });
    expect(launch.status).toBe(200);
    expect(((await launch.json()) as { data: { status: string; customers: number; moved: number } }).data).toMatchObject({ status: 'launched', customers: 1, moved: 1 });
    expect((await s.tier()).tierId).toBe(s.ids.Member);

    await s.order(49);
    expect((await s.tier()).tierId).toBe(s.ids.Member);
    await s.order(1);
    const view = await s.tier();
    expect(view.tierId).toBe(s.ids.Silver);
    expect(view.changes[0]).toMatchObject({ from: s.ids.Member, to: s.ids.Silver, toName: 'Silver', reason: 'promotion', actor: 'system' });
    expect(view.changes[0]!.explanation).toBe('Qualifies for Silver: tier points earned 150 ≥ 150.');
    expect(view.changes[1]).toMatchObject({ to: s.ids.Member, reason: 'launch', actor: 'admin:1' });
    const profile = ((await (await s.call('GET', `/api/customers/${customer.id}`)).json()) as { data: { tierId: string; events: { kind: string }[] } }).data;
    expect(profile.tierId).toBe(s.ids.Silver);
    expect(profile.events.filter((e) => e.kind === 'tier_changed')).toHaveLength(2);
  });

  it('promotes by amount spent and grants the entry reward once', async () => {
    const s = await shop({
      tiers: [tierData('Member', 0, { entryMethod: 'amount_spent' }), tierData('Gold', 250, { entryMethod: 'amount_spent', entryReward: { earnPoint: 40 } })],
      settings: { general: { status: true, entryMethod: 'amount_spent' } },
    });
    await s.call('POST', '/api/tiers/launch', {});
    await s.order(200);
    expect((await s.tier()).tierId).toBe(s.ids.Member);
    await s.order(60);
    const view = await s.tier();
    expect(view.tierId).toBe(s.ids.Gold);
    expect(view.changes[0]!.explanation).toBe('Qualifies for Gold: amount spent (minor units) 26000 ≥ 25000.');
    const activity = (await (await s.call('GET', `/api/customers/${customer.id}/activity`)).json()) as { data: { sourceType: string; points: number }[] };
    expect(activity.data.filter((e) => e.sourceType === 'tier_entry_reward').map((e) => e.points)).toEqual([40]);
    // The entry reward does not count as tier points.
    expect(view.stats.tierPoints).toBe(260);
  });

  it('refuses to launch twice, and to launch without a base tier', async () => {
    const s = await shop({ tiers: [tierData('Member', 0)] });
    expect((await s.call('POST', '/api/tiers/launch', {})).status).toBe(200);
    const again = await s.call('POST', '/api/tiers/launch', {});
    expect(again.status).toBe(409);
    expect(((await again.json()) as { error: { code: string } }).error.code).toBe('tier_program_launched');
    const empty = await makeApp();
    const res = await empty.call('POST', '/api/tiers/launch', {});
    expect(res.status).toBe(409);
    expect(((await res.json()) as { error: { code: string; message: string } }).error).toMatchObject({ code: 'no_base_tier', message: 'Must choose one base tier' });
  });

  it('relaunches with change notes, placing customers under the changed rule', async () => {
    const s = await shop({ tiers: [tierData('Member', 0), tierData('Regular', 15)], settings: { general: { status: true, entryMethod: 'number_of_orders' } } });
    await s.call('POST', '/api/tiers/launch', {});
    await s.order(10);
    await s.order(10);
    // Two orders are short of 15 orders…
    expect((await s.tier()).tierId).toBe(s.ids.Member);
    const settings = (await (await s.call('GET', '/api/kinds/tier.settings/docs')).json()) as { data: { id: string; version: number; data: Record<string, unknown> }[] };
    const doc = settings.data[0]!;
    const put = await s.call('PUT', `/api/kinds/tier.settings/docs/${doc.id}`, { version: doc.version, data: { ...doc.data, general: { status: true, entryMethod: 'points_earned', hideDefaultTier: false } } });
    expect(put.status).toBe(200);
    const res = await s.call('POST', '/api/tiers/relaunch', { changeNotes: 'Points now count', grantEntryRewards: false });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { data: { changeNotes: string; moved: number } }).data).toMatchObject({ changeNotes: 'Points now count', moved: 1 });
    // …and 20 tier points reach 15 once points count.
    const view = await s.tier();
    expect(view.tierId).toBe(s.ids.Regular);
    expect(view.changes[0]).toMatchObject({ reason: 'relaunch' });
  });
});

describe('demotion after inactivity', () => {
  it('downgrades on the daily job once the inactivity is complete, not a day before', async () => {
    const s = await shop({ settings: { general: { status: true, entryMethod: 'points_earned' }, demotion: { mode: 'downgrade_tier', inactivityValue: 30, inactivityUnit: 'day' } } });
    await s.call('POST', '/api/tiers/launch', {});
    await s.order(200);
    expect((await s.tier()).tierId).toBe(s.ids.Silver);

    // Ordered 2026-06-15 (New York): due on 2026-07-15 store time.
    const early = await runDailyJob(s.db, SHOP, new Date('2026-07-15T03:30:00Z'));
    expect(early).toMatchObject({ runDate: '2026-07-14', demoted: 0 });
    expect((await s.tier()).tierId).toBe(s.ids.Silver);

    const due = await runDailyJob(s.db, SHOP, new Date('2026-07-15T04:30:00Z'));
    expect(due).toMatchObject({ runDate: '2026-07-15', demoted: 1 });
    s.setClock('2026-07-15T05:00:00Z');
    const view = await s.tier();
    expect(view.tierId).toBe(s.ids.Member);
    expect(view.changes[0]).toMatchObject({ from: s.ids.Silver, to: s.ids.Member, reason: 'demotion', actor: 'system' });
    expect(view.changes[0]!.explanation).toBe('No activity since 2026-06-15 (30 days): downgraded to Member.');
    // Tier points restart at Member's requirement: a small order does not promote again at once.
    expect(view.stats.tierPoints).toBe(0);
    await s.order(20);
    expect((await s.tier()).tierId).toBe(s.ids.Member);
    // Re-running the same day changes nothing.
    expect(await runDailyJob(s.db, SHOP, new Date('2026-07-15T20:00:00Z'))).toMatchObject({ ran: false, demoted: 0 });
  });

  it('resets to the lowest tier with 0 tier points', async () => {
    const s = await shop({
      tiers: [tierData('Member', 0), tierData('Silver', 150), tierData('Gold', 300)],
      settings: { general: { status: true, entryMethod: 'points_earned' }, demotion: { mode: 'reset_tier', inactivityValue: 1, inactivityUnit: 'month' } },
    });
    await s.call('POST', '/api/tiers/launch', {});
    await s.order(400);
    expect((await s.tier()).tierId).toBe(s.ids.Gold);
    await runDailyJob(s.db, SHOP, new Date('2026-07-15T12:00:00Z'));
    s.setClock('2026-07-15T12:00:00Z');
    const view = await s.tier();
    expect(view.tierId).toBe(s.ids.Member);
    expect(view.stats.tierPoints).toBe(0);
  });
});

describe('exclusive tiers', () => {
  it('assigns an exclusive tier by hand, keeps it through orders, refuses point adjustments, and unassigns', async () => {
    const s = await shop({ tiers: [tierData('Member', 0), tierData('Silver', 150), tierData('Insiders', 100000, { exclusive: true })] });
    await s.call('POST', '/api/tiers/launch', {});
    await s.order(100);

    const silverByHand = await s.call('POST', `/api/customers/${customer.id}/tier`, { tierId: s.ids.Silver });
    expect(silverByHand.status).toBe(422);
    expect(((await silverByHand.json()) as { error: { details: Issue[] } }).error.details).toEqual([{ path: '/tierId', message: 'Silver is not an exclusive tier; customers reach it by assessment' }]);

    s.setClock('2026-06-15T18:00:00Z');
    const assigned = await s.call('POST', `/api/customers/${customer.id}/tier`, { tierId: s.ids.Insiders, note: 'Subscription member' });
    expect(assigned.status).toBe(200);
    expect(((await assigned.json()) as { data: TierView }).data).toMatchObject({ tierId: s.ids.Insiders, manual: true });
    await s.order(100);
    expect((await s.tier()).tierId).toBe(s.ids.Insiders);

    // Through the admin's adjust-points call, single and bulk: refused, nothing written.
    const balanceBefore = ((await (await s.call('GET', `/api/customers/${customer.id}`)).json()) as { data: { points: number } }).data.points;
    for (const [path, body] of [
      [`/api/customers/${customer.id}/adjust`, { points: 50 }],
      ['/api/customers/bulk/adjust', { customerIds: [customer.id], points: 50 }],
    ] as const) {
      const refused = await s.call('POST', path, body);
      expect(refused.status).toBe(409);
      expect(((await refused.json()) as { error: { code: string; message: string } }).error).toMatchObject({ code: 'tier_manual_assignment', message: 'A tier with manual assignment cannot have points adjusted' });
    }
    expect(((await (await s.call('GET', `/api/customers/${customer.id}`)).json()) as { data: { points: number } }).data.points).toBe(balanceBefore);

    s.setClock('2026-06-16T16:00:00Z');
    const unassigned = await s.call('DELETE', `/api/customers/${customer.id}/tier`);
    expect(unassigned.status).toBe(200);
    const view = ((await unassigned.json()) as { data: TierView }).data;
    // Back to the tier the 200 tier points earned meanwhile reach.
    expect(view).toMatchObject({ tierId: s.ids.Silver, manual: false });
    expect(view.changes.map((c) => c.reason).slice(0, 2)).toEqual(['manual_unassignment', 'manual_assignment']);
    expect((await s.call('POST', `/api/customers/${customer.id}/adjust`, { points: 50 })).status).toBe(200);

    const again = await s.call('DELETE', `/api/customers/${customer.id}/tier`);
    expect(again.status).toBe(409);
  });
});

describe('deactivation', () => {
  it('is refused while a program uses a tier, listing it, and allowed once it is off', async () => {
    const s = await shop();
    await s.call('POST', '/api/tiers/launch', {});
    const tiered = await s.post('earning.place_order', placeOrderData({ title: 'Silver bonus', priorityPlaceOrder: 5, customerEligibility: 'specific_tiers', eligibleTiers: [s.ids.Silver!] }));
    const refused = await s.call('POST', '/api/tiers/deactivate');
    expect(refused.status).toBe(409);
    const body = (await refused.json()) as { error: { code: string; message: string; details: Issue[] } };
    expect(body.error).toMatchObject({ code: 'tiers_in_use', message: 'Cannot deactivate VIP Tier while programs use it' });
    expect(body.error.details).toEqual([{ path: `/documents/${tiered}`, message: 'Silver bonus (earning.place_order) uses VIP tiers' }]);
    const status = (await (await s.call('GET', '/api/tiers/status')).json()) as { data: { status: string; usedBy: { id: string }[] } };
    expect(status.data.usedBy.map((u) => u.id)).toEqual([tiered]);

    const doc = (await (await s.call('GET', `/api/kinds/earning.place_order/docs/${tiered}`)).json()) as { data: { version: number; data: Record<string, unknown> } };
    expect((await s.call('PUT', `/api/kinds/earning.place_order/docs/${tiered}`, { version: doc.data.version, data: { ...doc.data.data, status: false } })).status).toBe(200);
    const ok = await s.call('POST', '/api/tiers/deactivate');
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as { data: { status: string } }).data.status).toBe('inactive');
    // Deactivated: orders no longer move tiers.
    await s.order(500);
    expect((await s.tier()).tierId).toBeNull();
  });
});

describe('tier points multiplier', () => {
  it('multiplies the awards of a customer in the tier and says so in the stored explanation', async () => {
    const s = await shop({ tiers: [tierData('Member', 0, { perks: [{ type: 'points_multiplier', title: '1.5× points', multiplier: 1.5 }] })] });
    await s.call('POST', '/api/tiers/launch', {});
    const first = (await (await s.order(100)).json()) as { data: { pointsAwarded: number } };
    expect(first.data.pointsAwarded).toBe(100);
    const second = (await (await s.order(101)).json()) as { data: { pointsAwarded: number } };
    expect(second.data.pointsAwarded).toBe(151);
    const activity = (await (await s.call('GET', `/api/customers/${customer.id}/activity`)).json()) as { data: { points: number; explanation: { decision: { message: string; tierMultiplier?: { multiplier: number; basePoints: number; tierName: string } } } }[] };
    const newest = activity.data[0]!;
    expect(newest.points).toBe(151);
    expect(newest.explanation.decision.tierMultiplier).toMatchObject({ multiplier: 1.5, basePoints: 101, tierName: 'Member' });
    expect(newest.explanation.decision.message).toContain('×1.5 for the Member tier: 101 → 151 points.');
  });

  it('takes back the multiplied points when a multiplied order is cancelled', async () => {
    const s = await shop({ tiers: [tierData('Member', 0, { perks: [{ type: 'points_multiplier', title: 'Double points', multiplier: 2 }] })] });
    await s.call('POST', '/api/tiers/launch', {});
    await s.order(10);
    const order = orderBody({ customer }, [{ price: '40.00' }, { price: '60.00' }]);
    expect(((await (await s.deliverOrder(order)).json()) as { data: { pointsAwarded: number } }).data.pointsAwarded).toBe(200);
    expect((await s.deliver('orders/cancelled', { id: order.id })).status).toBe(200);
    const balance = await s.db.selectFrom('customers').select('points_balance').where('shop_id', '=', SHOP).where('id', '=', customer.id).executeTakeFirstOrThrow();
    expect(balance.points_balance).toBe(10);
    // The cancellation takes its tier points back too.
    expect((await s.tier()).stats.tierPoints).toBe(10);
  });
});
