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
export const LIMIT_FACTS = new Set(['kind', 'placeOrderProgramCount', 'candidateActiveUnexpired', 'activeUnexpiredStreakCount']);

const engine = createRulesEngine(limitRules as unknown as RuleProperties[], LIMIT_FACTS);

/** A change about to be saved. `id` is null for a create. */
export interface CandidateChange {
  kind: string;
  id: string | null;
  data: JsonObject;
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
  const { events } = await engine.run(facts);
  return events.map((e) => ({
    code: String(e.params?.code),
    message: String(e.params?.message),
    path: String(e.params?.path ?? ''),
    limit: Number(e.params?.limit),
  }));
}
