import { anyElement, listOf, same } from './compare';
import type { OperatorDefinition } from './types';

/** `includes`: some element of the fact is one of the comma-separated values ("summer, sale"). */
export const includes: OperatorDefinition = {
  name: 'includes',
  label: 'is one of',
  needsValue: true,
  evaluate: (fact, value) => {
    const list = listOf(value);
    return anyElement(fact, (e) => list.some((v) => same(e, v)));
  },
};
