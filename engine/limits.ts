/**
 * Program limits (spec 001 §4 Programs, §9): the rule data in rules/limits.json, run by
 * json-rules-engine over facts computed here from the candidate document and the shop's other
 * documents. Checked on every create, update and status change.
 */
import type { RuleProperties } from 'json-rules-engine';
import { createRulesEngine } from './rules-engine';
import { windowPosition } from './store-time';
import type { StoredDocument, JsonObject } from './types';
import limitRules from '../rules/limits.json';

/** A broken limit: the rule's code (`limit.place_order_programs`), the spec's message, the field it concerns. */
export interface LimitViolation {
  code: string;
  message: string;
  path: string;
  limit: number;
}

/** The facts limit rules may name. */
export const LIMIT_FACTS = new Set([
  'kind',
  'placeOrderProgramCount',
  'candidateActiveUnexpired',
  'activeUnexpiredStreakCount',
  'priorityTaken',
  'candidateAutomaticDiscount',
  'automaticDiscountCount',
  'baseTierCount',
  'tierNameTaken',
  'tierRequirementTaken',
  'baseTierExclusive',
]);

/** Kinds whose documents the limit rules look at (the server loads these for every check). */
export const LIMITED_KINDS: readonly string[] = ['earning.place_order', 'earning.streak_interact_website', 'tier.tier'];
/** Families whose documents can be automatic discounts. */
export const AUTOMATIC_DISCOUNT_FAMILIES: readonly string[] = ['redeem'];

const engine = createRulesEngine(limitRules as unknown as RuleProperties[], LIMIT_FACTS);

/** A change about to be saved. `id` is null for a create. */
export interface CandidateChange {
  kind: string;
  id: string | null;
  data: JsonObject;
}

const text = (v: unknown): string => (typeof v === 'string' ? v.trim().toLowerCase() : '');

/** Priorities below this are "on top" and must be unique; 99, the default, may be shared (spec 002 §5, §9). */
export const TOP_PRIORITY_BELOW = 99;

function priorityFacts(change: CandidateChange, sameKind: readonly StoredDocument[]): { priorityTaken: string } {
  const p = change.data.priorityPlaceOrder;
  const top = typeof p === 'number' && p < TOP_PRIORITY_BELOW;
  return { priorityTaken: String(change.kind === 'earning.place_order' && top && sameKind.some((d) => d.data.priorityPlaceOrder === p)) };
}

function automaticDiscountFacts(change: CandidateChange, others: readonly StoredDocument[]): { candidateAutomaticDiscount: string; automaticDiscountCount: number } {
  const isAutomatic = (kind: string, data: JsonObject): boolean => AUTOMATIC_DISCOUNT_FAMILIES.includes(kind.split('.')[0] ?? '') && data.automaticDiscount === true && data.status === true;
  const candidate = isAutomatic(change.kind, change.data);
  return { candidateAutomaticDiscount: String(candidate), automaticDiscountCount: others.filter((d) => isAutomatic(d.kind, d.data)).length + (candidate ? 1 : 0) };
}

function tierFacts(change: CandidateChange, sameKind: readonly StoredDocument[]): Record<string, string | number> {
  if (change.kind !== 'tier.tier') return { baseTierCount: 1, tierNameTaken: 'false', tierRequirementTaken: 'false', baseTierExclusive: 'false' };
  const ladder = [...sameKind.map((d) => d.data), change.data];
  const isBase = (t: JsonObject): boolean => Number(t.entryRequirement ?? 0) === 0;
  return {
    baseTierCount: ladder.filter(isBase).length,
    tierNameTaken: String(sameKind.some((d) => text(d.data.name) !== '' && text(d.data.name) === text(change.data.name))),
    tierRequirementTaken: String(sameKind.some((d) => Number(d.data.entryRequirement ?? 0) === Number(change.data.entryRequirement ?? 0) && !isBase(change.data))),
    baseTierExclusive: String(isBase(change.data) && change.data.exclusive === true),
  };
}

function activeUnexpired(data: JsonObject, now: Date, timeZone: string): boolean {
  return data.status === true && windowPosition(now, timeZone, null, typeof data.endDate === 'string' ? data.endDate : null) !== 'after';
}

/**
 * Violations the change would cause, given the shop's current documents of the same family.
 * @param existing every stored document of the shop that limits look at (place-order and streak programs at least)
 */
export async function checkLimits(change: CandidateChange, existing: readonly StoredDocument[], now: Date, timeZone: string): Promise<LimitViolation[]> {
  const others = existing.filter((d) => d.id !== change.id);
  const sameKind = others.filter((d) => d.kind === change.kind);
  const candidateActive = activeUnexpired(change.data, now, timeZone);
  const facts = {
    kind: change.kind,
    placeOrderProgramCount: change.kind === 'earning.place_order' ? sameKind.length + 1 : sameKind.length,
    candidateActiveUnexpired: String(candidateActive),
    activeUnexpiredStreakCount:
      others.filter((d) => d.kind === 'earning.streak_interact_website' && activeUnexpired(d.data, now, timeZone)).length +
      (change.kind === 'earning.streak_interact_website' && candidateActive ? 1 : 0),
  };
  const { events } = await engine.run({ ...facts, ...priorityFacts(change, sameKind), ...automaticDiscountFacts(change, others), ...tierFacts(change, sameKind) });
  return events.map((e) => ({
    code: String(e.params?.code),
    message: String(e.params?.message),
    path: String(e.params?.path ?? ''),
    limit: Number(e.params?.limit),
  }));
}
