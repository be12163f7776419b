/**
 * The daily birthday and member-anniversary job (issue 11; spec 001 §3, spec 002 §5 "Birthday
 * reward only after 30 days since the last update"): birthdays and anniversaries fall on the
 * store-local date, a birthday changed too recently earns nothing, and a day runs once.
 */
import { describe, expect, it } from 'vitest';
import { runBirthdayJob, runDueBirthdayJobs } from '../../server/jobs/birthdays';
import { SHOP } from '../support/app';
import { CUSTOMER, eventsApp } from '../support/earning-events';

describe('birthday job', () => {
  it("awards on the customer's birthday in the store's timezone, once, and only with 30 days' notice", async () => {
    const s = await eventsApp('2026-10-01T15:00:00Z');
    await s.program('birthday', { earnPoint: 200 });
    expect((await s.proxy('POST', '/birthday', { birthday: '11/25' })).status).toBe(200);
    const late = '7400000000000000002';
    s.clock.now = new Date('2026-11-10T15:00:00Z');
    expect((await s.proxy('POST', '/birthday', { birthday: '11/25' }, { customer: late })).status).toBe(200);
    const deps = { db: s.db };

    // 03:00 UTC on the 25th is the 24th in New York: nobody's birthday yet.
    const before = await runBirthdayJob(deps, SHOP, new Date('2026-11-25T03:00:00Z'));
    expect(before).toMatchObject({ runDate: '2026-11-24', ran: true, birthdays: { customers: 0, points: 0 } });
    // 02:00 UTC on the 26th is still the 25th there.
    const day = await runBirthdayJob(deps, SHOP, new Date('2026-11-26T02:00:00Z'));
    expect(day).toMatchObject({ runDate: '2026-11-25', ran: true, birthdays: { customers: 1, points: 200 } });
    expect(await s.balance()).toBe(200);
    expect(await s.balance(late)).toBe(0);
    const [entry] = await s.entries();
    expect(entry).toMatchObject({ source_type: 'event', source_id: `birthday:${CUSTOMER}:2026`, points: 200 });
    expect(JSON.parse(entry!.explanation)).toMatchObject({ event: 'birthday', runDate: '2026-11-25', decision: { outcome: 'award', points: 200 } });

    // The same day again: nothing runs, nothing is awarded twice.
    expect((await runBirthdayJob(deps, SHOP, new Date('2026-11-26T04:00:00Z'))).ran).toBe(false);
    expect(await s.balance()).toBe(200);
  });

  it('awards member anniversaries on the store-local join date from the second year on', async () => {
    const s = await eventsApp();
    await s.program('member_anniversary', { earnPoint: 75 });
    // Joined 2025-11-25 at 23:30 in New York (04:30 UTC on the 26th).
    await s.db.insertInto('customers').values({ shop_id: SHOP, id: CUSTOMER, email: '', first_name: '', last_name: '', created_at: '2025-11-26T04:30:00.000Z', updated_at: '2025-11-26T04:30:00.000Z' }).execute();
    await s.db.insertInto('customers').values({ shop_id: SHOP, id: '2', email: '', first_name: '', last_name: '', created_at: '2026-11-25T12:00:00.000Z', updated_at: '2026-11-25T12:00:00.000Z' }).execute();
    const results = await runDueBirthdayJobs({ db: s.db }, new Date('2026-11-25T18:00:00Z'));
    expect(results).toEqual([{ shopId: SHOP, runDate: '2026-11-25', ran: true, birthdays: { customers: 0, points: 0 }, anniversaries: { customers: 1, points: 75 } }]);
    expect((await s.entries()).map((e) => [e.source_id, e.points])).toEqual([[`member_anniversary:${CUSTOMER}:2026`, 75]]);
    expect(await s.balance('2')).toBe(0);
  });

  it('does not run for a shop without an active birthday or anniversary program', async () => {
    const s = await eventsApp();
    await s.program('birthday', { earnPoint: 200, status: false });
    expect((await runBirthdayJob({ db: s.db }, SHOP, new Date('2026-11-25T18:00:00Z'))).ran).toBe(false);
  });
});
