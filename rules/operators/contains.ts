import { anyElement, text } from './compare';
import type { OperatorDefinition } from './types';

/** `contains`: some element of the fact contains the value as text (case-insensitive). An empty value never matches. */
export const contains: OperatorDefinition = {
  name: 'contains',
  label: 'contains',
  needsValue: true,
  evaluate: (fact, value) => text(value) !== '' && anyElement(fact, (e) => text(e).includes(text(value))),
};
