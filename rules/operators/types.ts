/**
 * A condition operator as the spec names it (spec 001 §3 Enumerations, "Condition matching
 * operators"). Registered with json-rules-engine under `name`, and used as-is by the fast path.
 */
export interface OperatorDefinition {
  /** The spec's enum value, verbatim (`greater_than_or_equal_to`). */
  name: string;
  /** Human label shown in the condition builder. */
  label: string;
  /** False for `empty` / `not_empty`, which ignore the condition's value. */
  needsValue: boolean;
  /**
   * Decides the condition. `factValue` is what the fact resolved to (a string, number, list of
   * strings such as tags, or undefined); `conditionValue` is the condition's `content` as typed by
   * the merchant (always a string). Never throws.
   */
  evaluate(factValue: unknown, conditionValue: unknown): boolean;
}
