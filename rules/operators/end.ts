import { anyElement, text } from './compare';
import type { OperatorDefinition } from './types';

/** `end`: some element of the fact ends with the value (case-insensitive). */
export const end: OperatorDefinition = {
  name: 'end',
  label: 'ends with',
  needsValue: true,
  evaluate: (fact, value) => text(value) !== '' && anyElement(fact, (e) => text(e).endsWith(text(value))),
};
