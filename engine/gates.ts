/**
 * Plan gates (spec 000 §6 Roles and permissions, spec 001 §6, spec 002 §6): may this shop use a
 * feature, and if not, which plan unlocks it and why. The gates are rule data in
 * rules/plan-gates.json, one json-rules-engine rule per feature (`gate.<feature>`), run over facts
 * computed here from the shop. Plan facts (feature group, display name, monthly order allowance,
 * referral link limit) come from rules/plans.json.
 *
 * @example
 * await checkGate('milestone', { plan: 'pro_3_2025' });
 * // → { feature: 'milestone', allowed: false, unlockPlan: 'Advanced',
 * //     reason: 'Milestones are available on the Advanced plan and above; this shop is on Essential.' }
 */
import type { Engine, RuleProperties } from 'json-rules-engine';
import { assertRuleVocabulary, createRulesEngine, leafOutcomes, RuleCatalogError } from './rules-engine';
import plans from '../rules/plans.json';
import gateRules from '../rules/plan-gates.json';

/**
 * The shop as a gate sees it (spec 000 §3 Shop fields). `plan` is a plan id of spec 000 §4
 * (`pro_3_2025`); an id rules/plans.json does not know counts as the free plan (group 0, Starter),
 * so a new or misspelt plan never unlocks anything. `shopifyPlan` is the platform plan; the store is
 * on Shopify Plus when it is `shopify_plus`. `customFeatures` and `customizeForShops` are the
 * per-shop unlock lists (spec 000 §6): a feature id in either unlocks that feature whatever the plan.
 */
export interface GateShop {
  plan: string;
  shopifyPlan?: string;
  customFeatures?: string[];
  customizeForShops?: string[];
}

/** A gate's answer: `unlockPlan` is a display name ("Advanced", "Shopify Plus"), null when allowed; `reason` is one sentence for the merchant. */
export interface GateAnswer {
  feature: string;
  allowed: boolean;
  unlockPlan: string | null;
  reason: string;
}

/** A plan of rules/plans.json. `referralLinkLimit` null means unlimited. */
interface Plan {
  group: number;
  displayName: string;
  monthlyOrderAllowance: number;
  referralLinkLimit: number | null;
}

/** A gate compiled at load: its own engine (so a check runs only its rule) and its event params. */
interface Gate {
  engine: Engine;
  label: string;
  requiredGroup: number;
  needsShopifyPlus: boolean;
}

/** The facts gate rules may name. `shopifyPlus` is "true"/"false" text, as the `equal` operator compares text. */
export const GATE_FACTS: ReadonlySet<string> = new Set(['planGroup', 'shopifyPlus', 'customFeatures', 'customizeForShops']);

const SHOPIFY_PLUS = 'Shopify Plus';
const PLANS: ReadonlyMap<string, Plan> = new Map(Object.entries(plans.plans));
const UNLOCK_PLAN_BY_GROUP: ReadonlyMap<number, string> = new Map(
  Object.entries(plans.unlockPlanByGroup).filter(([key]) => !key.startsWith('$')).map(([group, name]) => [Number(group), name]),
);
const TOP_GROUP = Math.max(...UNLOCK_PLAN_BY_GROUP.keys());
const STARTER = PLANS.get('free');
if (!STARTER) throw new RuleCatalogError('/plans/free', 'rules/plans.json: the free plan is missing');
const starter: Plan = STARTER;

/** A gate rule whose params disagree with its conditions or the plan catalog. */
function gateError(where: string, key: string, message: string): never {
  throw new RuleCatalogError(`${where}/event/params/${key}`, `rules/plan-gates.json ${where}: ${message}`);
}

/**
 * Checks a rule's event params against its conditions and the plan catalog (the unlock plan is
 * written in the rule for readers, so it must agree with what the conditions ask), then compiles it.
 */
function compileGate(rule: RuleProperties, where: string): [string, Gate] {
  assertRuleVocabulary(rule, GATE_FACTS, `rules/plan-gates.json ${where}`);
  const { feature, label, requiredGroup, unlockPlan, spec }: Record<string, unknown> = rule.event.params ?? {};
  if (typeof feature !== 'string' || rule.name !== `gate.${feature}`) return gateError(where, 'feature', 'the rule must be named "gate.<feature>" after event.params.feature');
  if (typeof label !== 'string' || typeof spec !== 'string') return gateError(where, 'label', 'label and spec must be text');
  if (typeof requiredGroup !== 'number' || typeof unlockPlan !== 'string') return gateError(where, 'requiredGroup', 'requiredGroup must be a number and unlockPlan text');
  const leaves = leafOutcomes(rule.conditions);
  const planLeaves = leaves.filter((l) => l.fact === 'planGroup');
  if (planLeaves.length !== (requiredGroup > 0 ? 1 : 0) || planLeaves.some((l) => l.value !== requiredGroup)) {
    return gateError(where, 'requiredGroup', `the conditions must compare planGroup with requiredGroup ${requiredGroup} once (none for 0)`);
  }
  const needsShopifyPlus = leaves.some((l) => l.fact === 'shopifyPlus');
  const expectedUnlock = needsShopifyPlus ? SHOPIFY_PLUS : UNLOCK_PLAN_BY_GROUP.get(requiredGroup);
  if (unlockPlan !== expectedUnlock) return gateError(where, 'unlockPlan', `unlockPlan must be "${String(expectedUnlock)}" for this rule's conditions`);
  return [feature, { engine: createRulesEngine([rule], GATE_FACTS), label, requiredGroup, needsShopifyPlus }];
}

const GATES: ReadonlyMap<string, Gate> = (() => {
  const gates = new Map<string, Gate>();
  (gateRules as unknown as RuleProperties[]).forEach((rule, i) => {
    const [feature, gate] = compileGate(rule, `/${i}`);
    if (gates.has(feature)) throw new RuleCatalogError(`/${i}/event/params/feature`, `rules/plan-gates.json /${i}: feature "${feature}" has more than one gate`);
    gates.set(feature, gate);
  });
  return gates;
})();

/** Every gated feature id (`milestone`, `partner_tier`), in rules/plan-gates.json order. */
export const GATED_FEATURES: readonly string[] = [...GATES.keys()];

/** Every plan id rules/plans.json knows (spec 000 §4 plus `head_start`). */
export const PLAN_IDS: readonly string[] = [...PLANS.keys()];

const planOf = (plan: string): Plan => PLANS.get(plan) ?? starter;

/** Feature group of a plan (spec 000 §6): 0 Starter, 1 any paid plan, 2 Advanced and Ultimate, 3 Ultimate. Unknown ids: 0. */
export function planGroup(plan: string): number {
  return planOf(plan).group;
}

/** Display name of a plan (spec 000 §4): "Starter", "Professional", "Essential", "Essential + POS", "Advanced", "Ultimate". Unknown ids: "Starter". */
export function planDisplayName(plan: string): string {
  return planOf(plan).displayName;
}

/** Free orders per month on a plan (spec 002 §9; spec 000 §9), in orders. Unknown ids: Starter's 150. */
export function monthlyOrderAllowance(plan: string): number {
  return planOf(plan).monthlyOrderAllowance;
}

/** Referral links a shop on the plan may have (spec 002 §9, spec 000 §8); null means unlimited. Unknown ids: Starter's 30. */
export function referralLinkLimit(plan: string): number | null {
  return planOf(plan).referralLinkLimit;
}

/** The shop's plan for a reason sentence; an unknown id is named so support can see why it counts as Starter. */
function planText(plan: string): string {
  return PLANS.has(plan) ? planDisplayName(plan) : `${starter.displayName} (plan "${plan}" is unknown and counts as ${starter.displayName})`;
}

/**
 * Whether `shop` may use `feature` (spec 000 §6, spec 001 §6, spec 002 §6). A plan at or above the
 * feature's group opens it (and Shopify Plus where the feature needs it); so does the feature id in
 * the shop's customFeatures or customizeForShops list. When denied, `unlockPlan` is "Shopify Plus"
 * if the store is not on Shopify Plus and the feature needs it, else the cheapest plan of the
 * required group ("Essential", "Advanced", "Ultimate").
 * @throws RuleCatalogError when `feature` has no gate in rules/plan-gates.json
 */
export function checkGate(feature: string, shop: GateShop): Promise<GateAnswer> {
  // Answers depend only on the gate facts and the plan, and the gate rules never change after
  // start: remember them, so list screens (GET /api/kinds asks about ~20 features) stay cheap.
  const key = JSON.stringify([feature, shop.plan, shop.shopifyPlan ?? null, shop.customFeatures ?? [], shop.customizeForShops ?? []]);
  let answer = answers.get(key);
  if (!answer) {
    if (answers.size >= MAX_REMEMBERED_ANSWERS) answers.clear();
    answer = evaluateGate(feature, shop);
    answers.set(key, answer);
    // A failed check (unknown feature) is not remembered.
    answer.catch(() => answers.delete(key));
  }
  return answer;
}

const MAX_REMEMBERED_ANSWERS = 4096;
const answers = new Map<string, Promise<GateAnswer>>();

async function evaluateGate(feature: string, shop: GateShop): Promise<GateAnswer> {
  const gate = GATES.get(feature);
  if (!gate) throw new RuleCatalogError('/feature', `checkGate: unknown feature "${feature}"; gated features are listed in rules/plan-gates.json`);
  const shopifyPlus = shop.shopifyPlan === 'shopify_plus';
  const facts = { planGroup: planGroup(shop.plan), shopifyPlus: String(shopifyPlus), customFeatures: shop.customFeatures ?? [], customizeForShops: shop.customizeForShops ?? [] };
  const run = await gate.engine.run(facts);
  const ruleResult = run.results[0] ?? run.failureResults[0];
  const outcomes = ruleResult ? leafOutcomes(ruleResult.conditions) : [];
  const held = (fact: string): boolean => outcomes.some((o) => o.fact === fact && o.result);
  const lacking = (fact: string): boolean => outcomes.some((o) => o.fact === fact && !o.result);

  const unlock = UNLOCK_PLAN_BY_GROUP.get(gate.requiredGroup);
  const tier = gate.requiredGroup >= TOP_GROUP ? `on the ${String(unlock)} plan` : `on the ${String(unlock)} plan and above`;
  const requirement = gate.needsShopifyPlus ? `${gate.label} are available to Shopify Plus stores ${unlock ? tier : 'only'}` : `${gate.label} are available ${tier}`;
  // What the shop has, met requirements first: "on Shopify Plus but on Essential".
  const parts: [string, boolean][] = [];
  if (gate.requiredGroup > 0) parts.push([`on ${planText(shop.plan)}`, !lacking('planGroup')]);
  if (gate.needsShopifyPlus) parts.push([shopifyPlus ? 'on Shopify Plus' : 'not on Shopify Plus', shopifyPlus]);
  parts.sort((a, b) => Number(b[1]) - Number(a[1]));
  const situation = parts.map(([text]) => text).join(parts.every(([, met]) => met === parts[0]?.[1]) ? ' and ' : ' but ');
  const planSentence = `${requirement}; this shop is ${situation}.`;

  if (run.events.length === 0) {
    const unlockPlan = lacking('shopifyPlus') ? SHOPIFY_PLUS : (unlock ?? SHOPIFY_PLUS);
    return { feature, allowed: false, unlockPlan, reason: planSentence };
  }
  const byPlan = !lacking('planGroup') && !lacking('shopifyPlus');
  const reason = byPlan
    ? planSentence
    : held('customFeatures')
      ? 'Unlocked for this shop by a custom feature flag.'
      : 'Unlocked for this shop by a per-shop customization.';
  return { feature, allowed: true, unlockPlan: null, reason };
}

/**
 * The answers for several features, in the order asked.
 * @throws RuleCatalogError when any feature has no gate
 */
export async function checkGates(features: readonly string[], shop: GateShop): Promise<GateAnswer[]> {
  return Promise.all(features.map((feature) => checkGate(feature, shop)));
}
