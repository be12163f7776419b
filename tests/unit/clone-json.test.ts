import { describe, expect, it } from 'vitest';
import { cloneJson, type JsonObject } from '../../engine/types';

describe('cloneJson (engine/types.ts)', () => {
  it('copies every level, keys in order, so changing the copy leaves the original as it was', () => {
    const original = JSON.parse('{"b":1,"a":{"list":[1,{"x":null}],"t":"text","f":false}}') as JsonObject;
    const copy = cloneJson(original);
    expect(copy).toEqual(original);
    expect(Object.keys(copy)).toEqual(['b', 'a']);
    ((copy.a as JsonObject).list as JsonObject[])[1]!.x = 5;
    (copy.a as JsonObject).t = 'changed';
    expect(original).toEqual(JSON.parse('{"b":1,"a":{"list":[1,{"x":null}],"t":"text","f":false}}'));
  });

  it('keeps a "__proto__" member as a member (as JSON.parse does), not as the prototype', () => {
    const original = JSON.parse('{"__proto__":{"polluted":true},"k":1}') as JsonObject;
    const copy = cloneJson(original);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.keys(copy)).toEqual(['__proto__', 'k']);
    expect((copy as Record<string, unknown>).polluted).toBeUndefined();
    expect(JSON.stringify(copy)).toBe('{"__proto__":{"polluted":true},"k":1}');
  });
});
