import { compareNumbers } from './compare';
import type { OperatorDefinition } from './types';

/** `greater_than`: the fact is a number strictly above the value; false when either is not a number. */
export const greaterThan: OperatorDefinition = {
  name: 'greater_than',
  label: 'is greater than',
  needsValue: true,
  evaluate: (fact, value) => compareNumbers(fact, value, (s) => s > 0),
};
