import { describe, expect, it } from 'vitest';
import { issuesToErrorSchema, pointerSegments, valueAtPointer } from '../../ui/form/error-schema';

describe('issuesToErrorSchema', () => {
  it('nests a pointer into objects and array indexes, ending in __errors', () => {
    expect(issuesToErrorSchema([{ path: '/conditions/0/content', message: 'Enter a value' }])).toEqual({
      conditions: { 0: { content: { __errors: ['Enter a value'] } } },
    });
  });

  it('collects several messages for the same field and keeps sibling fields apart', () => {
    expect(
      issuesToErrorSchema([
        { path: '/earnPoint', message: 'Too small' },
        { path: '/earnPoint', message: 'Must be whole' },
        { path: '/rateMoney', message: 'Required' },
      ]),
    ).toEqual({ earnPoint: { __errors: ['Too small', 'Must be whole'] }, rateMoney: { __errors: ['Required'] } });
  });

  it('unescapes ~1 and ~0 in pointer segments', () => {
    expect(pointerSegments('/a~1b/c~0d')).toEqual(['a/b', 'c~d']);
  });

  it('leaves whole-document issues (empty path) to the page banner', () => {
    expect(issuesToErrorSchema([{ path: '', message: 'Up to 10 place-order programs are allowed.' }])).toEqual({});
  });
});

describe('valueAtPointer', () => {
  it('reads through arrays and objects, and is undefined past the end', () => {
    const data = { conditions: [{ content: 'vip' }] };
    expect(valueAtPointer(data, '/conditions/0/content')).toBe('vip');
    expect(valueAtPointer(data, '/conditions/3/content')).toBeUndefined();
  });
});
