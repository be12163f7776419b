import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { mayBeInexact, parseExact, parseLossless } from '../../server/json';

describe('parseExact (server/json.ts)', () => {
  it('keeps integers beyond 2^53 as their digits and small ones as numbers', () => {
    expect(parseExact('{"id": 5678901234567890123, "n": 42, "p": 1.50}')).toEqual({ id: '5678901234567890123', n: 42, p: 1.5 });
  });

  it('keeps decimals with more digits than a double holds, and exponents a double cannot reach, as text', () => {
    expect(parseExact('[0.12345678901234567890, 1e400, 1e-400]')).toEqual(['0.12345678901234567890', '1e400', '1e-400']);
  });

  it('lets the last of a repeated member name win on both paths', () => {
    expect(parseExact('{"a": 1, "a": 2}')).toEqual({ a: 2 });
    expect(parseExact('{"a": 1, "a": 12345678901234567890}')).toEqual({ a: '12345678901234567890' });
  });

  it('keeps a member named __proto__ as data, not as the prototype', () => {
    const value = parseExact('{"__proto__": {"admin": true}}') as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect((value as { admin?: unknown }).admin).toBeUndefined();
    expect(Object.hasOwn(value, '__proto__')).toBe(true);
  });

  it('refuses text that is not JSON with invalid_json', () => {
    expect(() => parseExact('{"a": 1,}')).toThrow(expect.objectContaining({ status: 400, code: 'invalid_json' }));
    expect(() => parseExact('{"a": 12345678901234567890,}')).toThrow(expect.objectContaining({ status: 400, code: 'invalid_json' }));
  });

  it('gives what the exact parser gives for any JSON text (fast path or not)', () => {
    const number = fc.oneof(
      fc.integer(),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }).map((n) => ({ raw: n.toString() })),
      fc.tuple(fc.integer({ min: 1, max: 9 }), fc.integer({ min: -330, max: 330 })).map(([m, e]) => ({ raw: `${m}e${e}` })),
    );
    const leaf = fc.oneof(number, fc.string(), fc.boolean(), fc.constant(null));
    const value = fc.letrec((tie) => ({
      node: fc.oneof({ depthSize: 'small' }, leaf, fc.array(tie('node'), { maxLength: 4 }), fc.dictionary(fc.string({ maxLength: 6 }), tie('node'), { maxKeys: 4 })),
    })).node;
    const toText = (v: unknown): string => {
      if (v !== null && typeof v === 'object' && 'raw' in v && typeof (v as { raw: unknown }).raw === 'string') return (v as { raw: string }).raw;
      if (Array.isArray(v)) return `[${v.map(toText).join(',')}]`;
      if (v !== null && typeof v === 'object') return `{${Object.entries(v).map(([k, x]) => `${JSON.stringify(k)}:${toText(x)}`).join(',')}}`;
      return JSON.stringify(v) ?? 'null';
    };
    fc.assert(
      fc.property(value, (v) => {
        const text = toText(v);
        expect(parseExact(text)).toEqual(parseLossless(text));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('mayBeInexact: which texts the fast path may take', () => {
  it('looks at numbers, not at digits inside strings', () => {
    expect(mayBeInexact('{"token": "1234567890123456789", "hex": "a3e45f"}')).toBe(false);
    expect(mayBeInexact('{"escaped": "\\"1234567890123456789"}')).toBe(false);
    expect(mayBeInexact('{"id": 1234567890123456}')).toBe(true);
    expect(mayBeInexact('{"x": 1.5e16}')).toBe(true);
    expect(mayBeInexact('[1e-5, 123456789012345, 0.25]')).toBe(false);
    expect(mayBeInexact('{"a":\n\t -0.0000000000000001}')).toBe(true);
    expect(mayBeInexact('12345678901234567')).toBe(true);
    expect(mayBeInexact('[1, 2.5E+10]')).toBe(true);
  });

  it('may send a string that looks like a number to the exact parser, which gives the same value', () => {
    const text = '{"note": "at:12345678901234567", "n": 1}';
    expect(mayBeInexact(text)).toBe(true);
    expect(parseExact(text)).toEqual(JSON.parse(text));
  });

  it('takes one pass over a hostile text', () => {
    const hostile = `["${'\\"'.repeat(200_000)}", ${'1.'.repeat(7)}x ${'9e'.repeat(200_000)}]`;
    const started = performance.now();
    expect(mayBeInexact(hostile)).toBe(false);
    expect(performance.now() - started).toBeLessThan(500);
  });
});
