import { isEmpty } from './compare';
import type { OperatorDefinition } from './types';

/** `empty`: the fact has no value (missing, blank text or an empty list). The condition's value is ignored. */
export const empty: OperatorDefinition = {
  name: 'empty',
  label: 'is empty',
  needsValue: false,
  evaluate: (fact) => isEmpty(fact),
};
