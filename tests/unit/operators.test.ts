import { describe, expect, it } from 'vitest';
import { OPERATORS, OPERATORS_BY_NAME } from '../../rules/operators/index';
import conditionSchema from '../../schemas/_shared/condition.json';
import facts from '../../rules/facts.json';
import { createRulesEngine, RuleCatalogError } from '../../engine/rules-engine';
import { compareNumeric, numeric } from '../../rules/operators/compare';

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

describe('numbers in text: linear work for any length', () => {
  // A 100,000-character SKU made the old pattern backtrack for 11–13 s and block the server.
  const longSku = `${'1'.repeat(100_000)}x`;
  const longInteger = '9'.repeat(100_000);

  it('reads a 100,000-character SKU as no number, at once', () => {
    const started = performance.now();
    expect(numeric(longSku)).toBeNull();
    expect(compareNumeric(longSku, '10')).toBeNull();
    expect(performance.now() - started).toBeLessThan(250);
  });

  it('orders 100,000-digit integers exactly, at once', () => {
    const started = performance.now();
    expect(compareNumeric(longInteger, `${longInteger.slice(1)}8`)).toBe(1);
    expect(compareNumeric(`-${longInteger}`, '-1')).toBe(-1);
    expect(compareNumeric('+0007', 7)).toBe(0);
    expect(compareNumeric(1e21, '1000000000000000000001')).toBe(-1);
    expect(performance.now() - started).toBeLessThan(250);
  });
});
