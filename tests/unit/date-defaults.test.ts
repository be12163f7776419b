import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { addDays, relativeDateDefaults } from '../../engine/date-defaults';
import { createAjv, loadRegistry } from '../../engine/registry';
import { newDocumentData } from '../../ui/form/form-data';
import type { JsonObject } from '../../engine/types';

const dated = (days: number): JsonObject => ({ type: 'string', format: 'date', 'x-default-days-from-today': days });

describe('addDays', () => {
  it('crosses month and year ends on the calendar', () => {
    expect(addDays('2026-02-26', 3)).toBe('2026-03-01');
    expect(addDays('2028-02-26', 3)).toBe('2028-02-29');
    expect(addDays('2026-12-28', 7)).toBe('2027-01-04');
  });

  it('counts calendar days across a DST change, not 24-hour steps', () => {
    expect(addDays('2026-03-07', 1)).toBe('2026-03-08');
    expect(addDays('2026-10-31', 7)).toBe('2026-11-07');
  });
});

describe('relativeDateDefaults', () => {
  const schema: JsonObject = {
    type: 'object',
    properties: {
      startDate: dated(0),
      endDate: dated(7),
      title: { type: 'string' },
      general: { type: 'object', properties: { launchDate: dated(1) } },
    },
  };

  it('fills missing dates relative to the given store-local today, nested objects included', () => {
    expect(relativeDateDefaults(schema, { title: 'Streak', general: {} }, '2026-11-24')).toEqual({
      title: 'Streak',
      startDate: '2026-11-24',
      endDate: '2026-12-01',
      general: { launchDate: '2026-11-25' },
    });
  });

  it('keeps dates that are already set and does not change its input', () => {
    const data = { startDate: '2027-01-01' };
    expect(relativeDateDefaults(schema, data, '2026-11-24')).toMatchObject({ startDate: '2027-01-01', endDate: '2026-12-01' });
    expect(data).toEqual({ startDate: '2027-01-01' });
  });
});

describe('x-default-days-from-today in templates', () => {
  it('is a registered keyword that strict ajv checks: days are whole and not negative', () => {
    const ajv = createAjv();
    expect(() => ajv.compile({ type: 'object', properties: { d: dated(7) } })).not.toThrow();
    expect(() => ajv.compile({ type: 'object', properties: { d: dated(-1) } })).toThrow();
    expect(() => ajv.compile({ type: 'object', properties: { d: { type: 'string', 'x-default-days-from-tomorrow': 1 } } })).toThrow(/unknown keyword/);
  });

  it('starts a new streak today in the store timezone and ends it 7 days later (spec 001 §9)', () => {
    const streak = loadRegistry(join(import.meta.dirname, '../../schemas'), { only: 'earning.streak_interact_website' }).get('earning.streak_interact_website');
    expect(streak).toBeDefined();
    // 03:30 UTC on 24 November is still 23 November in New York.
    const data = newDocumentData(streak!.schema, 'America/New_York', new Date('2026-11-24T03:30:00Z'));
    expect(data).toMatchObject({ startDate: '2026-11-23', endDate: '2026-11-30', earnPoint: 10 });
    expect(newDocumentData(streak!.schema, 'Asia/Kolkata', new Date('2026-11-24T03:30:00Z'))).toMatchObject({ startDate: '2026-11-24', endDate: '2026-12-01' });
  });
});
