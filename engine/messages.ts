/**
 * Turns ajv errors into the spec's field messages (spec 002 §5 Validation rules: "This field is
 * required", bounds named in the message, "must be digits", "Invalid date value", …). Used by the
 * server (authority) and by the form (instant feedback) so both say the same thing.
 */
import type { FieldIssue } from './types';

/** The subset of an ajv `ErrorObject` this module reads (kept structural so the UI needs no ajv types). */
export interface AjvLikeError {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
  message?: string;
}

const REQUIRED = 'This field is required';

/** The spec's message for one ajv error. */
export function messageFor(error: AjvLikeError): string {
  const p = error.params;
  switch (error.keyword) {
    case 'required':
      return REQUIRED;
    case 'minimum':
      return `Must be greater than or equal to ${String(p.limit)}`;
    case 'exclusiveMinimum':
      return `Must be greater than ${String(p.limit)}`;
    case 'maximum':
      return `Must be less than or equal to ${String(p.limit)}`;
    case 'exclusiveMaximum':
      return `Must be less than ${String(p.limit)}`;
    case 'type':
      return p.type === 'integer' || p.type === 'number' ? 'Must be digits' : `Value invalid: expected ${String(p.type)}`;
    case 'minLength':
      return Number(p.limit) === 1 ? REQUIRED : `Must be at least ${String(p.limit)} characters`;
    case 'maxLength':
      return `Must be at most ${String(p.limit)} characters`;
    case 'format':
      return p.format === 'date' || p.format === 'date-time' ? 'Invalid date value' : p.format === 'email' ? 'Invalid email' : 'Value invalid';
    case 'pattern':
      return 'Value invalid';
    case 'enum':
    case 'const':
    case 'oneOf':
      return 'Value invalid';
    case 'maxItems':
      return `Select at most ${String(p.limit)}`;
    case 'minItems':
      return `Add at least ${String(p.limit)}`;
    case 'uniqueItems':
      return 'Value already exists';
    case 'additionalProperties':
      return `Unknown field "${String(p.additionalProperty)}"`;
    default:
      return error.message ?? 'Value invalid';
  }
}

/** JSON Pointer of the field an error is about (`required` errors point at the missing property). */
export function pathFor(error: AjvLikeError): string {
  if (error.keyword === 'required' && typeof error.params.missingProperty === 'string') {
    return `${error.instancePath}/${escapePointer(error.params.missingProperty)}`;
  }
  if (error.keyword === 'additionalProperties' && typeof error.params.additionalProperty === 'string') {
    return `${error.instancePath}/${escapePointer(error.params.additionalProperty)}`;
  }
  return error.instancePath;
}

/**
 * Field issues for a list of ajv errors, one per field (the first message wins), in input order.
 * `oneOf` errors on enumerations repeat each branch's `const` failure; those collapse into one.
 */
export function issuesFromAjv(errors: readonly AjvLikeError[] | null | undefined): FieldIssue[] {
  const byPath = new Map<string, string>();
  for (const error of errors ?? []) {
    const path = pathFor(error);
    const message = messageFor(error);
    if (!byPath.has(path)) byPath.set(path, message);
    else if (error.keyword === 'oneOf') byPath.set(path, message);
  }
  return [...byPath].map(([path, message]) => ({ path, message }));
}

/** Escapes one JSON Pointer segment (RFC 6901). */
export function escapePointer(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}
