import { includes } from './includes';
import type { OperatorDefinition } from './types';

/** `not_includes`: no element of the fact is one of the comma-separated values. */
export const notIncludes: OperatorDefinition = {
  name: 'not_includes',
  label: 'is not one of',
  needsValue: true,
  evaluate: (fact, value) => !includes.evaluate(fact, value),
};
