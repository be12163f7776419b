/**
 * VIP tier assessment in the engine (spec 002 §3 Tier, §4 demotion, §9 assessment cycles): which
 * tier a customer's stats reach with the requirement and value seen, exclusive tiers left to
 * manual assignment, demotion after inactivity, assessment periods, and the earning multiplier.
 */
import { describe, expect, it } from 'vitest';
import {
  addToLocalDate,
  applyTierMultiplier,
  assessDemotion,
  assessmentMonths,
  assessTier,
  isPromotion,
  multiplyPoints,
  requirementInStatUnits,
  settingsFromDocument,
  tierFromDocument,
  type TierDef,
} from '../../engine/tiers';
import type { OrderEvaluation } from '../../engine/earning';

const tier = (id: string, entryRequirement: number, extra: Partial<TierDef> = {}): TierDef => ({
  id,
  name: id[0]!.toUpperCase() + id.slice(1),
  entryRequirement,
  exclusive: false,
  entryRewardPoints: 0,
  pointsMultiplier: null,
  entryMethod: 'points_earned',
  ...extra,
});
const LADDER = [tier('gold', 1000), tier('member', 0), tier('silver', 500), tier('vip', 0, { exclusive: true })];
const stats = (tierPoints: number, amountSpentMinor = 0, orders = 0) => ({ tierPoints, amountSpentMinor, orders });

describe('assessTier', () => {
  it('answers the highest tier the points reach, with the requirement and the value seen', () => {
    const a = assessTier(LADDER, 'points_earned', stats(740), 2);
    expect(a.tierId).toBe('silver');
    expect(a.explanation).toMatchObject({ method: 'points_earned', required: 500, seen: 740, next: { tierId: 'gold', required: 1000, remaining: 260 } });
    expect(a.explanation.message).toBe('Qualifies for Silver: tier points earned 740 ≥ 500; 260 more for Gold.');
  });

  it('reaches a tier exactly at its requirement and has no next tier at the top', () => {
    expect(assessTier(LADDER, 'points_earned', stats(500), 2).tierId).toBe('silver');
    expect(assessTier(LADDER, 'points_earned', stats(499), 2).tierId).toBe('member');
    const top = assessTier(LADDER, 'points_earned', stats(5000), 2);
    expect(top.tierId).toBe('gold');
    expect(top.explanation.next).toBeNull();
  });

  it('reads amount spent in minor units against requirements in major units', () => {
    const ladder = [tier('member', 0), tier('silver', 19.99)];
    expect(requirementInStatUnits(ladder[1]!, 'amount_spent', 2)).toBe(1999);
    expect(assessTier(ladder, 'amount_spent', stats(0, 1998), 2).tierId).toBe('member');
    expect(assessTier(ladder, 'amount_spent', stats(0, 1999), 2).tierId).toBe('silver');
    expect(requirementInStatUnits(tier('jp', 500), 'amount_spent', 0)).toBe(500);
  });

  it('counts orders for number_of_orders and ignores points then', () => {
    const ladder = [tier('member', 0), tier('regular', 3)];
    expect(assessTier(ladder, 'number_of_orders', stats(99999, 0, 2), 2).tierId).toBe('member');
    expect(assessTier(ladder, 'number_of_orders', stats(0, 0, 3), 2).tierId).toBe('regular');
  });

  it('never answers an exclusive tier, however high the stats', () => {
    const ladder = [tier('member', 0), tier('vip', 10, { exclusive: true })];
    expect(assessTier(ladder, 'points_earned', stats(1_000_000), 2).tierId).toBe('member');
  });

  it('answers no tier when the shop has none to reach', () => {
    const a = assessTier([tier('vip', 0, { exclusive: true })], 'points_earned', stats(10), 2);
    expect(a.tierId).toBeNull();
    expect(a.explanation.message).toBe('The shop has no tier customers can reach by assessment.');
  });
});

describe('isPromotion', () => {
  it('is a move up the ladder only', () => {
    expect(isPromotion(LADDER, 'member', 'silver')).toBe(true);
    expect(isPromotion(LADDER, 'gold', 'silver')).toBe(false);
    expect(isPromotion(LADDER, null, 'member')).toBe(true);
    expect(isPromotion(LADDER, 'silver', 'silver')).toBe(false);
  });
});

describe('assessDemotion', () => {
  const settings = (mode: 'downgrade_tier' | 'reset_tier', inactivityValue = 6, inactivityUnit: 'day' | 'month' = 'month') => ({
    ...settingsFromDocument(undefined),
    demotion: { mode, inactivityValue, inactivityUnit },
  });

  it('downgrades one step after the inactivity, restarting at that tier’s requirement', () => {
    const d = assessDemotion(LADDER, settings('downgrade_tier'), 'gold', false, '2026-01-15', '2026-07-15', 2);
    expect(d).toMatchObject({ demote: true, toTierId: 'silver', resetStatsTo: 500 });
    expect(d.message).toBe('No activity since 2026-01-15 (6 months): downgraded to Silver.');
  });

  it('waits until the day the inactivity is complete', () => {
    const d = assessDemotion(LADDER, settings('downgrade_tier'), 'gold', false, '2026-01-15', '2026-07-14', 2);
    expect(d.demote).toBe(false);
    expect(d.message).toBe('Active on 2026-01-15; demotion due on 2026-07-15.');
  });

  it('resets to the lowest tier with 0 tier points', () => {
    expect(assessDemotion(LADDER, settings('reset_tier', 30, 'day'), 'gold', false, '2026-01-01', '2026-01-31', 2)).toMatchObject({ demote: true, toTierId: 'member', resetStatsTo: 0 });
  });

  it('never demotes a manually assigned tier or the base tier', () => {
    expect(assessDemotion(LADDER, settings('reset_tier'), 'vip', true, '2020-01-01', '2026-01-01', 2).demote).toBe(false);
    expect(assessDemotion(LADDER, settings('reset_tier'), 'member', false, '2020-01-01', '2026-01-01', 2).demote).toBe(false);
  });
});

describe('assessment periods', () => {
  const a = (cycle: 'lifetime' | 'calendar_year' | 'half_calendar_year' | 'rolling', offsetMonths = 0, lookbackMonths = 12) => ({ cycle, offsetMonths, lookbackMonths });

  it('counts every month for lifetime, the last N months for rolling', () => {
    expect(assessmentMonths(a('lifetime'), '2026-05-20')).toEqual({ from: null, to: '2026-05' });
    expect(assessmentMonths(a('rolling', 0, 3), '2026-02-10')).toEqual({ from: '2025-12', to: '2026-02' });
  });

  it('starts calendar cycles at the offset month', () => {
    expect(assessmentMonths(a('calendar_year'), '2026-05-20')).toEqual({ from: '2026-01', to: '2026-05' });
    expect(assessmentMonths(a('calendar_year', 3), '2026-02-20')).toEqual({ from: '2025-04', to: '2026-02' });
    expect(assessmentMonths(a('half_calendar_year'), '2026-08-01')).toEqual({ from: '2026-07', to: '2026-08' });
    expect(assessmentMonths(a('half_calendar_year', 2), '2026-02-01')).toEqual({ from: '2025-09', to: '2026-02' });
  });

  it('adds calendar units to store-local dates, clamping to the month’s end', () => {
    expect(addToLocalDate('2026-08-31', 6, 'month')).toBe('2027-02-28');
    expect(addToLocalDate('2026-12-30', 1, 'week')).toBe('2027-01-06');
    expect(addToLocalDate('2026-03-01', -1, 'day')).toBe('2026-02-28');
  });
});

describe('tier documents and multipliers', () => {
  it('reads the multiplier perk and the entry reward from a tier document', () => {
    const t = tierFromDocument({
      id: 't1',
      kind: 'tier.tier',
      schemaVersion: 1,
      version: 1,
      createdAt: '',
      updatedAt: '',
      data: { name: 'Gold', entryRequirement: 500, entryReward: { earnPoint: 100 }, exclusive: false, perks: [{ type: 'custom_reward', title: 'Gift' }, { type: 'points_multiplier', title: '1.5x', multiplier: 1.5 }] },
    });
    expect(t).toMatchObject({ name: 'Gold', entryRequirement: 500, entryRewardPoints: 100, pointsMultiplier: 1.5 });
  });

  it('multiplies points exactly and rounds down', () => {
    expect(multiplyPoints(15, 1.5)).toBe(22);
    expect(multiplyPoints(100, 1.15)).toBe(115);
    expect(multiplyPoints(7, 2)).toBe(14);
  });

  it('multiplies an award, re-splits its lines and says so, leaving denials alone', () => {
    const evaluation: OrderEvaluation = {
      orderId: 'o1',
      totalPoints: 10,
      orderSkipped: null,
      decisions: [
        { programId: 'p1', programVersion: 1, programTitle: 'Orders', kind: 'earning.place_order', outcome: 'award', points: 10, reason: null, message: '"Orders" awards 10 points.', eligibleLineIds: ['a', 'b'], conditionChecks: [], working: null, lineAllocations: [{ lineId: 'a', quantity: 1, points: 6 }, { lineId: 'b', quantity: 1, points: 4 }], autoRemovePoints: true },
        { programId: 'p2', programVersion: 1, programTitle: 'Other', kind: 'earning.place_order', outcome: 'deny', points: 0, reason: 'conditions_not_met', message: 'no', eligibleLineIds: [], conditionChecks: [], working: null, lineAllocations: [], autoRemovePoints: true },
      ],
    };
    const out = applyTierMultiplier(evaluation, { tierId: 'gold', tierName: 'Gold', multiplier: 1.5 });
    expect(out.totalPoints).toBe(15);
    expect(out.decisions[0]).toMatchObject({ points: 15, tierMultiplier: { tierId: 'gold', multiplier: 1.5, basePoints: 10 } });
    expect(out.decisions[0]!.lineAllocations.map((l) => l.points)).toEqual([9, 6]);
    expect(out.decisions[0]!.message).toBe('"Orders" awards 10 points. ×1.5 for the Gold tier: 10 → 15 points.');
    expect(out.decisions[1]).toBe(evaluation.decisions[1]);
    expect(evaluation.decisions[0]!.points).toBe(10);
  });
});
