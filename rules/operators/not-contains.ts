import { contains } from './contains';
import type { OperatorDefinition } from './types';

/** `not_contains`: no element of the fact contains the value. */
export const notContains: OperatorDefinition = {
  name: 'not_contains',
  label: 'does not contain',
  needsValue: true,
  evaluate: (fact, value) => !contains.evaluate(fact, value),
};
