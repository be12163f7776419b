import { anyElement, text } from './compare';
import type { OperatorDefinition } from './types';

/** `start`: some element of the fact starts with the value (case-insensitive). */
export const start: OperatorDefinition = {
  name: 'start',
  label: 'starts with',
  needsValue: true,
  evaluate: (fact, value) => text(value) !== '' && anyElement(fact, (e) => text(e).startsWith(text(value))),
};
