import { compareNumbers } from './compare';
import type { OperatorDefinition } from './types';

/** `less_than`: the fact is a number strictly below the value. */
export const lessThan: OperatorDefinition = {
  name: 'less_than',
  label: 'is less than',
  needsValue: true,
  evaluate: (fact, value) => compareNumbers(fact, value, (s) => s < 0),
};
