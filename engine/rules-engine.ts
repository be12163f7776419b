/**
 * json-rules-engine set up with this project's vocabulary: the spec's 14 operators registered
 * under their spec names (replacing the library's built-in `equal`/`contains`), a plain property
 * path resolver, and undefined facts allowed (a missing fact fails its condition instead of
 * throwing). Rules are checked against the catalogs before they are used: a rule naming an
 * operator or fact the catalog does not know is refused (RuleCatalogError).
 */
import { Engine, type EngineResult, type RuleProperties, type TopLevelCondition } from 'json-rules-engine';
import { OPERATORS, OPERATORS_BY_NAME } from '../rules/operators/index';
import factsCatalog from '../rules/facts.json';

/** A fact of the earning-condition catalog (rules/facts.json). */
export interface CatalogFact {
  criteria: 'product' | 'order' | 'customer' | 'collection';
  /** json-rules-engine fact id: `line`, `order` or `customer`. */
  fact: 'line' | 'order' | 'customer';
  /** Property of that fact. */
  path: string;
  type: 'string' | 'number' | 'money' | 'list';
}

/** Condition fields by id (`product.title`), from rules/facts.json. */
export const FACTS: ReadonlyMap<string, CatalogFact> = new Map(
  Object.entries(factsCatalog).filter(([key]) => !key.startsWith('$')) as [string, CatalogFact][],
);

/** A rule refers to an operator or fact the catalog does not know. `path` points into the rule. */
export class RuleCatalogError extends Error {
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(message);
    this.name = 'RuleCatalogError';
  }
}

/** One leaf condition as written in rule data. */
interface LeafCondition {
  fact: string;
  operator: string;
  value?: unknown;
  path?: string;
}

/**
 * Checks every leaf of a rule's conditions: its operator must be one of the spec's operators, and
 * its fact one of `knownFacts`. Throws RuleCatalogError naming the first offending leaf.
 */
export function assertRuleVocabulary(rule: RuleProperties, knownFacts: ReadonlySet<string>, where = ''): void {
  const visit = (node: unknown, path: string): void => {
    if (node === null || typeof node !== 'object') throw new RuleCatalogError(path, `${where}: condition at ${path} is not an object`);
    const n = node as Record<string, unknown>;
    for (const key of ['all', 'any'] as const) {
      if (Array.isArray(n[key])) {
        (n[key] as unknown[]).forEach((child, i) => visit(child, `${path}/${key}/${i}`));
        return;
      }
    }
    if (n.not !== undefined) return visit(n.not, `${path}/not`);
    const leaf = n as unknown as LeafCondition;
    if (!OPERATORS_BY_NAME.has(leaf.operator)) throw new RuleCatalogError(`${path}/operator`, `${where}: unknown operator "${String(leaf.operator)}" at ${path}`);
    if (!knownFacts.has(leaf.fact)) throw new RuleCatalogError(`${path}/fact`, `${where}: unknown fact "${String(leaf.fact)}" at ${path}`);
  };
  visit(rule.conditions, '/conditions');
}

const resolvePath = (value: object, path: string): unknown => (value as Record<string, unknown>)[path];

/**
 * A json-rules-engine Engine with the spec's operators, holding `rules` after checking their
 * vocabulary against `knownFacts`. Throws RuleCatalogError for an unknown operator or fact.
 */
export function createRulesEngine(rules: readonly RuleProperties[], knownFacts: ReadonlySet<string>): Engine {
  const engine = new Engine([], { allowUndefinedFacts: true, pathResolver: resolvePath });
  for (const op of OPERATORS) engine.addOperator(op.name, (a: unknown, b: unknown) => op.evaluate(a, b));
  for (const rule of rules) {
    assertRuleVocabulary(rule, knownFacts, rule.name ?? 'rule');
    engine.addRule(rule);
  }
  return engine;
}

/**
 * A runner for one rule set, shared by every caller with the same rules (keyed by their JSON):
 * building an Engine (operators, rule, condition objects) costs more than running it, and a
 * shop's programs decide order after order. json-rules-engine keeps a run's status on the
 * Engine, so two runs of one Engine must not overlap: each shared runner queues its runs one
 * after another. At most 1,000 rule sets are kept (the oldest is dropped). Throws
 * RuleCatalogError as createRulesEngine does.
 */
export function sharedRulesRunner(rules: readonly RuleProperties[], knownFacts: ReadonlySet<string>): (facts: Record<string, unknown>) => Promise<EngineResult> {
  const key = `${[...knownFacts].join(',')}|${JSON.stringify(rules)}`;
  let entry = RUNNERS.get(key);
  if (!entry) {
    entry = { engine: createRulesEngine(rules, knownFacts), tail: Promise.resolve() };
    if (RUNNERS.size >= 1000) RUNNERS.delete(RUNNERS.keys().next().value as string);
    RUNNERS.set(key, entry);
  }
  const shared = entry;
  return (facts) => {
    const result = shared.tail.then(() => shared.engine.run(facts));
    shared.tail = result.catch(() => undefined);
    return result;
  };
}

const RUNNERS = new Map<string, { engine: Engine; tail: Promise<unknown> }>();

/** A leaf condition after a run: what the fact resolved to and whether it held. */
export interface ConditionOutcome {
  fact: string;
  path?: string;
  operator: string;
  value: unknown;
  factValue: unknown;
  result: boolean;
}

/** Flattens a run's condition tree into leaf outcomes, in rule order. */
export function leafOutcomes(conditions: TopLevelCondition): ConditionOutcome[] {
  const out: ConditionOutcome[] = [];
  const visit = (node: unknown): void => {
    const n = node as Record<string, unknown>;
    for (const key of ['all', 'any'] as const) if (Array.isArray(n[key])) return (n[key] as unknown[]).forEach(visit);
    if (n.not !== undefined) return visit(n.not);
    out.push({
      fact: String(n.fact),
      ...(typeof n.path === 'string' ? { path: n.path } : {}),
      operator: String(n.operator),
      value: n.value,
      factValue: n.factResult,
      result: n.result === true,
    });
  };
  visit(conditions);
  return out;
}
