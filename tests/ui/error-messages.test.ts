import { describe, expect, it } from 'vitest';
import type { RJSFValidationError } from '@rjsf/utils';
import { issuesFromAjv } from '../../engine/messages';
import { transformErrors } from '../../ui/form/error-messages';
import { createAjv } from '../../engine/registry';

/** The same invalid value through ajv as the server runs it and through the form's transformer. */
function both(schema: object, data: unknown) {
  const validate = createAjv().compile(schema);
  validate(data);
  const server = issuesFromAjv(validate.errors).map((i) => i.message);
  const form = transformErrors(
    (validate.errors ?? []).map((e) => ({ name: e.keyword, params: e.params, message: e.message, property: e.instancePath, stack: '', schemaPath: e.schemaPath }) as RJSFValidationError),
    {},
  ).map((e) => e.message);
  return { server, form };
}

describe('form messages are the server messages (spec 002 §5)', () => {
  it.each([
    ['minimum', { type: 'object', properties: { n: { type: 'integer', minimum: 1 } } }, { n: 0 }, 'Must be greater than or equal to 1'],
    ['maximum', { type: 'object', properties: { n: { type: 'number', maximum: 100 } } }, { n: 101 }, 'Must be less than or equal to 100'],
    ['type', { type: 'object', properties: { n: { type: 'number' } } }, { n: 'x' }, 'Must be digits'],
    ['maxLength', { type: 'object', properties: { s: { type: 'string', maxLength: 3 } } }, { s: 'abcd' }, 'Must be at most 3 characters'],
    ['required', { type: 'object', required: ['s'], properties: { s: { type: 'string' } } }, {}, 'This field is required'],
    ['format date', { type: 'object', properties: { d: { type: 'string', format: 'date' } } }, { d: '2026-13-45' }, 'Invalid date value'],
  ])('%s', (_name, schema, data, message) => {
    const { server, form } = both(schema, data);
    expect(server).toEqual([message]);
    expect(form).toEqual([message]);
  });
});
