import { describe, expect, it } from 'vitest';
import { OPERATORS, OPERATORS_BY_NAME } from '../../rules/operators/index';
import conditionSchema from '../../schemas/_shared/condition.json';
import facts from '../../rules/facts.json';
import { createRulesEngine, RuleCatalogError } from '../../engine/rules-engine';

const op = (name: string) => OPERATORS_BY_NAME.get(name)!;

describe('the operator catalog', () => {
  it('holds exactly the spec 001 §3 operators, and the condition schema offers exactly those', () => {
    const spec = ['contains', 'not_contains', 'equal', 'not_equal', 'start', 'end', 'includes', 'not_includes', 'greater_than', 'greater_than_or_equal_to', 'less_than', 'less_than_or_equal_to', 'empty', 'not_empty'];
    expect(OPERATORS.map((o) => o.name)).toEqual(spec);
    expect(conditionSchema.properties.typeMatch.oneOf.map((o) => o.const)).toEqual(spec);
  });
  it('the condition schema lists exactly the fact catalog', () => {
    expect(conditionSchema.properties.field.oneOf.map((o) => o.const).sort()).toEqual(Object.keys(facts).filter((k) => !k.startsWith('$')).sort());
  });
});

describe('operators', () => {
  it.each([
    ['contains', 'Blue Snowboard', 'snow', true],
    ['contains', ['summer', 'sale'], 'SALE', true],
    ['contains', 'Blue', '', false],
    ['not_contains', 'Blue Snowboard', 'ski', true],
    ['equal', 10, '10.0', true],
    ['equal', '007', '7', false],
    ['equal', '9007199254740993', '9007199254740992', false],
    ['equal', 'VIP', 'vip', true],
    ['not_equal', 'gold', 'silver', true],
    ['start', 'SKU-123', 'sku-', true],
    ['end', 'SKU-123', '23', true],
    ['includes', 'red', 'blue, red', true],
    ['includes', ['a', 'b'], 'c, d', false],
    ['not_includes', 'green', 'blue, red', true],
    ['greater_than', '10', '9', true],
    ['greater_than', '9007199254740993', '9007199254740992', true],
    ['greater_than', 'abc', '9', false],
    ['greater_than_or_equal_to', 9, '9', true],
    ['less_than', 9.99, '10', true],
    ['less_than_or_equal_to', '10.01', '10', false],
    ['empty', '', '', true],
    ['empty', [], 'x', true],
    ['empty', undefined, '', true],
    ['not_empty', ['x'], '', true],
  ] as const)('%s(%j, %j) is %s', (name, fact, value, expected) => {
    expect(op(name).evaluate(fact, value)).toBe(expected);
  });
});

describe('rule vocabulary', () => {
  it('refuses a rule that names an unknown operator', () => {
    expect(() => createRulesEngine([{ name: 'r', conditions: { all: [{ fact: 'order', operator: 'greaterThan', value: 1 }] }, event: { type: 'x' } }], new Set(['order']))).toThrow(RuleCatalogError);
  });
  it('refuses a rule that names an unknown fact', () => {
    expect(() => createRulesEngine([{ name: 'r', conditions: { all: [{ fact: 'cart', operator: 'equal', value: 1 }] }, event: { type: 'x' } }], new Set(['order']))).toThrow(/unknown fact "cart"/);
  });
});
