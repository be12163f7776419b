import { equal } from './equal';
import type { OperatorDefinition } from './types';

/** `not_equal`: no element of the fact equals the value. */
export const notEqual: OperatorDefinition = {
  name: 'not_equal',
  label: 'is not equal to',
  needsValue: true,
  evaluate: (fact, value) => !equal.evaluate(fact, value),
};
