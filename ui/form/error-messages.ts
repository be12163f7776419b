import type { ErrorTransformer, RJSFValidationError } from '@rjsf/utils';

type Params = Record<string, unknown>;

/** Merchant-facing wording for ajv's keywords; anything not listed keeps ajv's message. */
const messages: Record<string, (params: Params) => string> = {
  required: () => 'This field is required',
  minLength: (p) => (p.limit === 1 ? 'This field is required' : `Enter at least ${String(p.limit)} characters`),
  maxLength: (p) => `Enter at most ${String(p.limit)} characters`,
  minimum: (p) => `Enter ${String(p.limit)} or more`,
  maximum: (p) => `Enter ${String(p.limit)} or less`,
  exclusiveMinimum: (p) => `Enter a number greater than ${String(p.limit)}`,
  exclusiveMaximum: (p) => `Enter a number less than ${String(p.limit)}`,
  type: (p) => (p.type === 'integer' ? 'Enter a whole number' : p.type === 'number' ? 'Enter a number' : 'Enter a valid value'),
  format: (p) => (p.format === 'date' ? 'Enter a date' : 'Enter a valid value'),
  enum: () => 'Choose one of the options',
  const: () => 'Choose one of the options',
  oneOf: () => 'Choose one of the options',
  minItems: (p) => `Add at least ${String(p.limit)}`,
  maxItems: (p) => `Add at most ${String(p.limit)}`,
  uniqueItems: () => 'Remove the duplicate entries',
};

/**
 * Rewrites client-side validation errors into plain sentences shown under each field.
 * `required` errors already sit on the missing field, so they need no field name.
 */
export const transformErrors: ErrorTransformer = (errors: RJSFValidationError[]) =>
  errors.map((error) => {
    const message = error.name ? messages[error.name]?.((error.params ?? {}) as Params) : undefined;
    return message ? { ...error, message } : error;
  });
