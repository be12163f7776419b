import type { ErrorTransformer, RJSFValidationError } from '@rjsf/utils';
import { messageFor } from '../../engine/messages';

/**
 * Rewrites client-side validation errors into the spec's field messages (spec 002 §5) with the
 * very function the server uses (engine/messages.ts), so the form and the API say the same thing
 * about the same value. `required` errors already sit on the missing field, so they need no field
 * name.
 */
export const transformErrors: ErrorTransformer = (errors: RJSFValidationError[]) =>
  errors.map((error) => (error.name ? { ...error, message: messageFor({ keyword: error.name, instancePath: '', params: (error.params ?? {}) as Record<string, unknown>, ...(error.message ? { message: error.message } : {}) }) } : error));
