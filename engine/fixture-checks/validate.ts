/**
 * `check: "validate"`: is this document of this kind valid (schema, then cross-field rules)?
 * facts: kind, data. expect: errors [{ path, message }] (empty = valid). Needs the registry, so
 * the runner passes `options.validate`.
 */
import { compare, FixtureFormatError, resultOf, type FixtureCheck } from './support';

export const validateCheck: FixtureCheck = {
  async run({ facts, expect }, options) {
    if (!options.validate) throw new FixtureFormatError('/check', 'validate fixtures need the kind registry (run them with npm run fixtures)');
    const issues = options.validate(String(facts.kind), facts.data);
    return resultOf([compare('errors', expect.errors, issues)], issues);
  },
};
