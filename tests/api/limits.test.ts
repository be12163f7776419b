import { describe, expect, it } from 'vitest';
import { makeApp } from '../support/app';

type ErrorBody = { error: { code: string; message: string } };

const streak = (overrides: Record<string, unknown> = {}) => ({
  title: 'Streak',
  status: true,
  startDate: '2026-06-01',
  endDate: '2026-06-30',
  streakMilestones: [{ day: 7, earnPoint: 100 }],
  ...overrides,
});

describe('program limits (spec 001 §4)', () => {
  it('refuses the 11th place-order program with the spec wording', async () => {
    const { call } = await makeApp();
    for (let i = 1; i <= 10; i += 1) {
      const res = await call('POST', '/api/kinds/earning.place_order/docs', { data: { title: `Program ${i}`, priorityPlaceOrder: i } });
      expect(res.status).toBe(201);
    }
    const eleventh = await call('POST', '/api/kinds/earning.place_order/docs', { data: { title: 'Program 11' } });
    expect(eleventh.status).toBe(409);
    expect(((await eleventh.json()) as ErrorBody).error).toMatchObject({ code: 'limit.place_order_programs', message: 'Up to 10 place-order programs are allowed.' });
    const list = (await (await call('GET', '/api/kinds/earning.place_order/docs')).json()) as { count: number };
    expect(list.count).toBe(10);
  });

  it('refuses a second active, unexpired streak program with the spec wording', async () => {
    const { call } = await makeApp({ now: () => new Date('2026-06-10T12:00:00Z') });
    expect((await call('POST', '/api/kinds/earning.streak_interact_website/docs', { data: streak() })).status).toBe(201);
    const second = await call('POST', '/api/kinds/earning.streak_interact_website/docs', { data: streak({ title: 'Another' }) });
    expect(second.status).toBe(409);
    expect(((await second.json()) as ErrorBody).error).toMatchObject({ code: 'limit.active_streak_programs', message: 'Only one active, unexpired streak program is allowed.' });
  });

  it('allows an inactive second streak but refuses turning it on', async () => {
    const { call } = await makeApp({ now: () => new Date('2026-06-10T12:00:00Z') });
    await call('POST', '/api/kinds/earning.streak_interact_website/docs', { data: streak() });
    const created = await call('POST', '/api/kinds/earning.streak_interact_website/docs', { data: streak({ title: 'Draft', status: false }) });
    expect(created.status).toBe(201);
    const doc = ((await created.json()) as { data: { id: string; data: object } }).data;
    const toggled = await call('PUT', `/api/kinds/earning.streak_interact_website/docs/${doc.id}`, { version: 1, data: { ...doc.data, status: true } });
    expect(toggled.status).toBe(409);
  });

  it('does not count an expired streak', async () => {
    const { call } = await makeApp({ now: () => new Date('2026-07-10T12:00:00Z') });
    const old = streak({ startDate: '2026-06-01', endDate: '2026-06-30' });
    expect((await call('POST', '/api/kinds/earning.streak_interact_website/docs', { data: old })).status).toBe(201);
    const current = streak({ title: 'July', startDate: '2026-07-01', endDate: '2026-07-31' });
    expect((await call('POST', '/api/kinds/earning.streak_interact_website/docs', { data: current })).status).toBe(201);
  });
});
