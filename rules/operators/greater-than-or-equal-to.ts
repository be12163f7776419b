import { compareNumbers } from './compare';
import type { OperatorDefinition } from './types';

/** `greater_than_or_equal_to`: the fact is a number at or above the value. */
export const greaterThanOrEqualTo: OperatorDefinition = {
  name: 'greater_than_or_equal_to',
  label: 'is greater than or equal to',
  needsValue: true,
  evaluate: (fact, value) => compareNumbers(fact, value, (s) => s >= 0),
};
