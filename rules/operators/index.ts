import { contains } from './contains';
import { empty } from './empty';
import { end } from './end';
import { equal } from './equal';
import { greaterThan } from './greater-than';
import { greaterThanOrEqualTo } from './greater-than-or-equal-to';
import { includes } from './includes';
import { lessThan } from './less-than';
import { lessThanOrEqualTo } from './less-than-or-equal-to';
import { notContains } from './not-contains';
import { notEmpty } from './not-empty';
import { notEqual } from './not-equal';
import { notIncludes } from './not-includes';
import { start } from './start';
import type { OperatorDefinition } from './types';

export type { OperatorDefinition } from './types';

/** The spec's 14 condition operators (spec 001 §3), in the spec's order. The one operator catalog. */
export const OPERATORS: readonly OperatorDefinition[] = [
  contains, notContains, equal, notEqual, start, end, includes, notIncludes,
  greaterThan, greaterThanOrEqualTo, lessThan, lessThanOrEqualTo, empty, notEmpty,
];

/** Operator by spec name, for look-ups while compiling rules. */
export const OPERATORS_BY_NAME: ReadonlyMap<string, OperatorDefinition> = new Map(OPERATORS.map((op) => [op.name, op]));
