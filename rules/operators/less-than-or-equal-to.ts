import { compareNumbers } from './compare';
import type { OperatorDefinition } from './types';

/** `less_than_or_equal_to`: the fact is a number at or below the value. */
export const lessThanOrEqualTo: OperatorDefinition = {
  name: 'less_than_or_equal_to',
  label: 'is less than or equal to',
  needsValue: true,
  evaluate: (fact, value) => compareNumbers(fact, value, (s) => s <= 0),
};
