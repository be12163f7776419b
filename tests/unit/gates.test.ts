/**
 * Plan gates (engine/gates.ts, rules/plan-gates.json, rules/plans.json): spec 000 §6 groups,
 * spec 002 §6 plan gates, spec 002 §9 allowances and referral limits.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  checkGate,
  checkGates,
  GATED_FEATURES,
  monthlyOrderAllowance,
  PLAN_IDS,
  planDisplayName,
  planGroup,
  referralLinkLimit,
  type GateShop,
} from '../../engine/gates';
import { RuleCatalogError } from '../../engine/rules-engine';
import gateRules from '../../rules/plan-gates.json';

const ROOT = join(import.meta.dirname, '..', '..');

const shop = (o: Partial<GateShop> = {}): GateShop => ({ plan: 'free', shopifyPlan: 'basic', customFeatures: [], customizeForShops: [], ...o });
const plus = (plan: string, o: Partial<GateShop> = {}): GateShop => shop({ plan, shopifyPlan: 'shopify_plus', ...o });

describe('plans', () => {
  it.each(['pro', 'pro_2', 'pro_3_2024', 'pro_4_2024', 'pro_3_2025', 'pro_4_2025', 'head_start'])('puts the paid plan %s in group 1 (spec 000 §6)', (plan) => {
    expect(planGroup(plan)).toBe(1);
  });

  it.each([['advanced', 2], ['advanced_2025', 2], ['enterprise', 3], ['enterprise_2025', 3]])('puts %s in group %i', (plan, group) => {
    expect(planGroup(plan)).toBe(group);
  });

  it('counts an unknown plan id as Starter: group 0, 150 orders, 30 referral links', () => {
    expect([planGroup('pro_5_2026'), planDisplayName('pro_5_2026'), monthlyOrderAllowance('pro_5_2026'), referralLinkLimit('pro_5_2026')]).toEqual([0, 'Starter', 150, 30]);
  });

  it('shows the 2024 and 2025 variants of a plan under one display name', () => {
    expect(new Set(['pro_4_2024', 'pro_4_2025'].map(planDisplayName))).toEqual(new Set(['Essential + POS']));
    expect(new Set(['enterprise', 'enterprise_2025'].map(planDisplayName))).toEqual(new Set(['Ultimate']));
  });

  it('gives Essential + POS twice the monthly orders of Essential (spec 002 §9 POS extension: 1,000 free orders)', () => {
    expect(monthlyOrderAllowance('pro_4_2025')).toBe(2 * monthlyOrderAllowance('pro_3_2025'));
  });

  it('limits referral links on Starter and Essential and leaves Advanced and Ultimate unlimited', () => {
    expect(['free', 'pro_3_2025', 'advanced_2025', 'enterprise_2025'].map(referralLinkLimit)).toEqual([30, 100, null, null]);
  });

  it('treats the head-start trial as Essential', () => {
    expect([planDisplayName('head_start'), monthlyOrderAllowance('head_start')]).toEqual([planDisplayName('pro_3_2025'), monthlyOrderAllowance('pro_3_2025')]);
  });
});

describe('group boundaries', () => {
  it('refuses paid programs on Starter and names Essential as the unlock plan', async () => {
    expect(await checkGate('paid_programs', shop())).toMatchObject({ allowed: false, unlockPlan: 'Essential' });
  });

  it('allows paid programs on Essential', async () => {
    expect(await checkGate('paid_programs', shop({ plan: 'pro_3_2025' }))).toMatchObject({ allowed: true, unlockPlan: null });
  });

  it('refuses milestones on Essential + POS, names Advanced and says which plan the shop is on', async () => {
    expect(await checkGate('milestone', shop({ plan: 'pro_4_2025' }))).toEqual({
      feature: 'milestone',
      allowed: false,
      unlockPlan: 'Advanced',
      reason: 'Milestones are available on the Advanced plan and above; this shop is on Essential + POS.',
    });
  });

  it('allows milestones on Advanced', async () => {
    expect(await checkGate('milestone', shop({ plan: 'advanced_2025' }))).toMatchObject({ allowed: true, unlockPlan: null });
  });

  it('refuses POS Pro on Advanced and names Ultimate as the unlock plan', async () => {
    expect(await checkGate('pos_pro', shop({ plan: 'advanced' }))).toMatchObject({ allowed: false, unlockPlan: 'Ultimate' });
  });

  it('allows POS Pro on Ultimate', async () => {
    expect(await checkGate('pos_pro', shop({ plan: 'enterprise_2025' }))).toMatchObject({ allowed: true });
  });

  it('refuses programs on POS devices on Starter only', async () => {
    const answers = await Promise.all(['free', 'pro'].map((plan) => checkGate('pos_programs', shop({ plan }))));
    expect(answers.map((a) => a.allowed)).toEqual([false, true]);
  });
});

describe('Shopify Plus features', () => {
  it('refuses the partner tier to an Advanced store not on Shopify Plus and names Shopify Plus', async () => {
    const answer = await checkGate('partner_tier', shop({ plan: 'advanced_2025' }));
    expect(answer).toMatchObject({ allowed: false, unlockPlan: 'Shopify Plus' });
    expect(answer.reason).toContain('this shop is on Advanced but not on Shopify Plus');
  });

  it('refuses the partner tier to a Shopify Plus store below Advanced and names Advanced', async () => {
    const answer = await checkGate('partner_tier', plus('pro_3_2025'));
    expect(answer).toMatchObject({ allowed: false, unlockPlan: 'Advanced' });
    expect(answer.reason).toContain('this shop is on Shopify Plus but on Essential');
  });

  it('allows the partner tier to a Shopify Plus store on Advanced', async () => {
    expect(await checkGate('partner_tier', plus('advanced'))).toMatchObject({ allowed: true });
  });

  it('allows checkout UI blocks to a Shopify Plus store on any plan, and refuses them elsewhere on any plan', async () => {
    const answers = await Promise.all([checkGate('checkout_ui_blocks', plus('free')), checkGate('checkout_ui_blocks', shop({ plan: 'enterprise_2025' }))]);
    expect(answers.map((a) => [a.allowed, a.unlockPlan])).toEqual([[true, null], [false, 'Shopify Plus']]);
  });
});

describe('per-shop unlocks', () => {
  it('unlocks a feature named in customFeatures on any plan', async () => {
    expect(await checkGate('milestone', shop({ customFeatures: ['milestone'] }))).toMatchObject({
      allowed: true,
      unlockPlan: null,
      reason: 'Unlocked for this shop by a custom feature flag.',
    });
  });

  it('unlocks a feature named in customizeForShops on any plan', async () => {
    expect(await checkGate('pos_pro', shop({ plan: 'pro_3_2024', customizeForShops: ['pos_pro'] }))).toMatchObject({ allowed: true });
  });

  it('does not let a flag for one feature unlock another', async () => {
    expect(await checkGate('milestone', shop({ customFeatures: ['magic_tags'], customizeForShops: ['rule_engine'] }))).toMatchObject({ allowed: false, unlockPlan: 'Advanced' });
  });

  it('explains an allowed feature by the plan when the plan allows it as well as a flag', async () => {
    expect((await checkGate('milestone', shop({ plan: 'advanced', customFeatures: ['milestone'] }))).reason).toContain('this shop is on Advanced');
  });
});

describe('unknown plans and features', () => {
  it('counts an unknown plan as Starter and names the unknown id in the reason', async () => {
    const answer = await checkGate('paid_programs', shop({ plan: 'pro_5_2026' }));
    expect(answer).toMatchObject({ allowed: false, unlockPlan: 'Essential' });
    expect(answer.reason).toContain('"pro_5_2026"');
  });

  it('throws RuleCatalogError naming an unknown feature', async () => {
    await expect(checkGate('teleport', shop())).rejects.toThrow(RuleCatalogError);
    await expect(checkGate('teleport', shop())).rejects.toThrow('"teleport"');
  });

  it('rejects a batch that asks for an unknown feature', async () => {
    await expect(checkGates(['milestone', 'teleport'], shop())).rejects.toThrow('"teleport"');
  });
});

describe('every gate', () => {
  it('has exactly one rule per feature in rules/plan-gates.json', () => {
    expect(gateRules.map((r) => r.event.params.feature)).toEqual(GATED_FEATURES);
  });

  it('refuses every feature to a Starter store not on Shopify Plus and names a plan that unlocks it', async () => {
    const answers = await checkGates(GATED_FEATURES, shop());
    expect(answers.filter((a) => a.allowed || a.unlockPlan === null)).toEqual([]);
    expect(new Set(answers.map((a) => a.unlockPlan))).toEqual(new Set(['Essential', 'Advanced', 'Ultimate', 'Shopify Plus']));
  });

  it('allows every feature to an Ultimate store on Shopify Plus', async () => {
    const answers = await checkGates(GATED_FEATURES, plus('enterprise_2025'));
    expect(answers.filter((a) => !a.allowed)).toEqual([]);
  });

  it('answers in the order asked', async () => {
    expect((await checkGates(['pos_pro', 'perks'], shop())).map((a) => a.feature)).toEqual(['pos_pro', 'perks']);
  });

  it('has a fixture in fixtures/rules/gates for every feature and every plan id', () => {
    const dir = join(ROOT, 'fixtures', 'rules', 'gates');
    const facts = readdirSync(dir)
      .filter((f) => f.endsWith('.json'))
      .map((f) => (JSON.parse(readFileSync(join(dir, f), 'utf8')) as { facts: { feature: string; shop: GateShop } }).facts);
    expect(GATED_FEATURES.filter((f) => !facts.some((x) => x.feature === f))).toEqual([]);
    expect(PLAN_IDS.filter((p) => !facts.some((x) => x.shop.plan === p))).toEqual([]);
  });
});

describe('the gate catalog check at load', () => {
  afterEach(() => {
    vi.doUnmock('../../rules/plan-gates.json');
    vi.resetModules();
  });

  const loadWith = async (rules: unknown[]): Promise<unknown> => {
    vi.resetModules();
    vi.doMock('../../rules/plan-gates.json', () => ({ default: rules }));
    return import('../../engine/gates');
  };
  const gate = (feature: string, conditions: unknown, params: Record<string, unknown> = {}) => ({
    name: `gate.${feature}`,
    conditions,
    event: { type: 'allowed', params: { feature, label: 'X', requiredGroup: 2, unlockPlan: 'Advanced', spec: 'x', ...params } },
  });
  const byGroup = { any: [{ fact: 'planGroup', operator: 'greater_than_or_equal_to', value: 2 }] };

  it('refuses two gates for one feature', async () => {
    await expect(loadWith([gate('milestone', byGroup), gate('milestone', byGroup)])).rejects.toThrow('feature "milestone" has more than one gate');
  });

  it('refuses a gate naming a fact it cannot compute', async () => {
    await expect(loadWith([gate('milestone', { any: [{ fact: 'orderCount', operator: 'greater_than', value: 1 }] })])).rejects.toThrow('unknown fact "orderCount"');
  });

  it('refuses a gate whose unlock plan disagrees with its required group', async () => {
    await expect(loadWith([gate('milestone', byGroup, { unlockPlan: 'Ultimate' })])).rejects.toThrow('unlockPlan must be "Advanced"');
  });
});
