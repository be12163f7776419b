import { isEmpty } from './compare';
import type { OperatorDefinition } from './types';

/** `not_empty`: the fact has a value. The condition's value is ignored. */
export const notEmpty: OperatorDefinition = {
  name: 'not_empty',
  label: 'is not empty',
  needsValue: false,
  evaluate: (fact) => !isEmpty(fact),
};
