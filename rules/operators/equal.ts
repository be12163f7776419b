import { anyElement, same } from './compare';
import type { OperatorDefinition } from './types';

/** `equal`: some element of the fact equals the value (as numbers when both are numeric, else case-insensitive text). */
export const equal: OperatorDefinition = {
  name: 'equal',
  label: 'is equal to',
  needsValue: true,
  evaluate: (fact, value) => anyElement(fact, (e) => same(e, value)),
};
