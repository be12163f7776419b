/**
 * Earning events in the running app (issue 11; spec 001 §3, spec 002 §3–§5): the customer
 * webhooks award sign-up and newsletter points, the storefront's visit ping, birthday and claims,
 * the custom program's API trigger; each award is an `event` ledger entry with the engine's
 * decision as its explanation, limited per customer and never written twice for one event.
 */
import { describe, expect, it } from 'vitest';
import { SHOP } from '../support/app';
import { CUSTOMER, eventsApp } from '../support/earning-events';

const json = async <T>(res: Response): Promise<T> => (await res.json()) as T;

describe('customer webhooks', () => {
  it('awards sign-up and newsletter points once to a new subscribed member, with the decision stored', async () => {
    const s = await eventsApp();
    await s.program('sign_up', { earnPoint: 100 });
    await s.program('sign_up_newsletter', { earnPoint: 30 });
    const body = { ...s.customerBody({ email_marketing_consent: { state: 'subscribed' } }), id: CUSTOMER };
    const res = await s.deliver('customers/create', body);
    expect(res.status).toBe(200);
    expect((await json<{ data: unknown }>(res)).data).toEqual({ customerId: CUSTOMER, signUp: 100, newsletter: 30 });
    expect(await s.balance()).toBe(130);
    const rows = await s.entries();
    expect(rows.map((r) => [r.source_type, r.source_id, r.type, r.points, r.program_kind])).toEqual([
      ['event', `sign_up:${CUSTOMER}`, 'earn_point', 100, 'earning.sign_up'],
      ['event', `sign_up_newsletter:${CUSTOMER}`, 'earn_point', 30, 'earning.sign_up_newsletter'],
    ]);
    const explanation = JSON.parse(rows[0]!.explanation) as { event: string; topic: string; decision: { outcome: string; message: string } };
    expect(explanation).toMatchObject({ event: 'sign_up', topic: 'customers/create', decision: { outcome: 'award', message: '"Sign up" awards 100 points.' } });

    // The platform delivers the same webhook again, and an update repeats the subscription.
    expect((await json<{ data: unknown }>(await s.deliver('customers/create', body))).data).toEqual({ customerId: CUSTOMER, signUp: 0, newsletter: 0 });
    await s.deliver('customers/update', body);
    expect(await s.balance()).toBe(130);
    expect(await s.entries()).toHaveLength(2);
  });

  it('awards the newsletter when an update brings the subscription, and sets the birthday from facts.birth_date', async () => {
    const s = await eventsApp();
    await s.program('sign_up_newsletter', { earnPoint: 30 });
    const body = { ...s.customerBody(), id: CUSTOMER };
    await s.deliver('customers/create', body);
    expect(await s.balance()).toBe(0);
    const res = await s.deliver('customers/update', { ...body, email_marketing_consent: { state: 'subscribed' }, metafields: [{ namespace: 'facts', key: 'birth_date', value: '1990-05-17' }] });
    expect((await json<{ data: unknown }>(res)).data).toEqual({ customerId: CUSTOMER, signUp: 0, newsletter: 30 });
    expect(await s.balance()).toBe(30);
    const customer = await s.db.selectFrom('customers').select(['birthday', 'email']).where('id', '=', CUSTOMER).executeTakeFirstOrThrow();
    expect(customer).toEqual({ birthday: '05/17', email: 'kim@example.com' });
  });

  it('keeps event points pending for the waiting period when the shop uses pending points', async () => {
    const s = await eventsApp('2026-11-25T15:00:00Z', { pendingPoints: { enabled: true, days: 14 } });
    await s.program('sign_up', { earnPoint: 100 });
    await s.deliver('customers/create', { ...s.customerBody(), id: CUSTOMER });
    const profile = await (await s.call('GET', `/api/customers/${CUSTOMER}`)).json() as { data: { points: number; pendingPoints: number } };
    expect(profile.data).toMatchObject({ points: 0, pendingPoints: 100 });
    expect((await s.entries()).map((e) => [e.type, e.available_at])).toEqual([['pending_earn_point', '2026-12-09T15:00:00.000Z']]);
  });

  it('refuses a customer body without an id at the door with the field path', async () => {
    const s = await eventsApp();
    const res = await s.deliver('customers/create', { email: 'x@example.com' });
    expect(res.status).toBe(400);
    expect((await json<{ error: { details: unknown[] } }>(res)).error.details).toEqual([{ path: '/id', message: 'The customer id is missing or not a number' }]);
  });

  it('gives a guest nothing from a members-only sign-up program', async () => {
    const s = await eventsApp();
    await s.program('sign_up', { earnPoint: 100 });
    await s.db.insertInto('customers').values({ shop_id: SHOP, id: CUSTOMER, email: '', first_name: '', last_name: '', type: 'guest', created_at: '2026-01-01T00:00:00.000Z', updated_at: '2026-01-01T00:00:00.000Z' }).execute();
    await s.deliver('customers/create', { ...s.customerBody(), id: CUSTOMER });
    expect(await s.balance()).toBe(0);
  });
});

describe('storefront visit ping', () => {
  /** Pings, checks the 202 answer, lets the queue award it, and answers the points it brought. */
  const visit = async (s: Awaited<ReturnType<typeof eventsApp>>, headers?: Record<string, string>): Promise<number> => {
    const before = await s.balance();
    const res = await s.proxy('POST', '/visit', undefined, headers ? { headers } : {});
    expect(res.status).toBe(202);
    expect((await json<{ data: { queued: boolean } }>(res)).data.queued).toBe(true);
    await s.queue.drain();
    return (await s.balance()) - before;
  };

  it('awards visits within the per-day limit and again the next store-local day', async () => {
    const s = await eventsApp('2026-11-25T15:00:00Z');
    await s.program('interact_website', { earnPoint: 10, hasLimit: true, limitInterval: 2, limitUnit: 'day' });
    expect([await visit(s), await visit(s), await visit(s)]).toEqual([10, 10, 0]);
    // 04:30 UTC on the 26th is still the 25th in New York: the limit holds.
    s.clock.now = new Date('2026-11-26T04:30:00Z');
    expect(await visit(s)).toBe(0);
    s.clock.now = new Date('2026-11-26T05:30:00Z');
    expect(await visit(s)).toBe(10);
    expect(await s.balance()).toBe(30);
    // Each processed visit records what it awarded.
    const results = await s.db.selectFrom('webhook_deliveries').select(['topic', 'status', 'result']).where('topic', '=', 'loyalty/visit').orderBy('seq').execute();
    expect(results.map((r) => [r.status, (JSON.parse(r.result!) as { awarded: number }).awarded])).toEqual([['done', 10], ['done', 10], ['done', 0], ['done', 0], ['done', 10]]);
  });

  it('awards a visit at the moment of the ping, whenever the queue processes it', async () => {
    const s = await eventsApp('2026-11-25T15:00:00Z');
    await s.program('streak_interact_website', { earnPoint: 5, startDate: '2026-11-01', endDate: '2026-11-30' });
    // Pinged late on the 25th (store time) and processed after midnight: the streak day is the 25th.
    s.clock.now = new Date('2026-11-26T04:59:00Z');
    expect((await s.proxy('POST', '/visit')).status).toBe(202);
    s.clock.now = new Date('2026-11-26T06:00:00Z');
    await s.queue.drain();
    expect((await s.entries()).map((r) => r.source_id)).toEqual([`streak_interact_website:${CUSTOMER}:2026-11-25`]);
  });

  it('counts a retried ping with the same Idempotency-Key once', async () => {
    const s = await eventsApp();
    await s.program('interact_website', { earnPoint: 10, hasLimit: false });
    const first = await s.proxy('POST', '/visit', undefined, { headers: { 'Idempotency-Key': 'page-1' } });
    const again = await s.proxy('POST', '/visit', undefined, { headers: { 'Idempotency-Key': 'page-1' } });
    expect([(await json<{ data: { duplicate: boolean } }>(first)).data.duplicate, (await json<{ data: { duplicate: boolean } }>(again)).data.duplicate]).toEqual([false, true]);
    await s.queue.drain();
    expect(await s.balance()).toBe(10);
    expect((await s.entries()).map((r) => r.source_id)).toEqual([`interact_website:${CUSTOMER}:page-1`]);
  });

  it('builds a streak over consecutive store-local days with its bonus on the streak day, once a day', async () => {
    const s = await eventsApp('2026-11-23T15:00:00Z');
    await s.program('streak_interact_website', { earnPoint: 5, streakMilestones: [{ day: 3, earnPoint: 50 }], startDate: '2026-11-01', endDate: '2026-11-30' });
    const got: number[] = [];
    for (const at of ['2026-11-23T15:00:00Z', '2026-11-23T20:00:00Z', '2026-11-24T15:00:00Z', '2026-11-25T15:00:00Z']) {
      s.clock.now = new Date(at);
      got.push(await visit(s));
    }
    expect(got).toEqual([5, 0, 5, 55]);
    const last = (await s.entries()).at(-1)!;
    expect(last.source_id).toBe(`streak_interact_website:${CUSTOMER}:2026-11-25`);
    expect((JSON.parse(last.explanation) as { decision: { message: string } }).decision.message).toBe('"Visit streak" awards 55 points (day 3 of the streak, 50 bonus points).');
  });

  it('answers a guest harmlessly and records nothing', async () => {
    const s = await eventsApp();
    await s.program('interact_website', { earnPoint: 10 });
    const res = await s.proxy('POST', '/visit', undefined, { customer: null });
    expect(res.status).toBe(200);
    expect(await json<unknown>(res)).toEqual({ data: { queued: false } });
    expect(await s.db.selectFrom('webhook_deliveries').select('id').where('topic', '=', 'loyalty/visit').execute()).toEqual([]);
  });

  it('keeps visit pings out of the webhook deliveries list unless asked for, and never hides a dead one', async () => {
    const s = await eventsApp();
    await s.program('interact_website', { earnPoint: 10, hasLimit: false });
    await s.deliver('customers/create', { ...s.customerBody(), id: CUSTOMER });
    await visit(s);
    const topics = async (query: string) => ((await (await s.call('GET', `/api/webhook-deliveries${query}`)).json()) as { data: { topic: string }[] }).data.map((d) => d.topic);
    expect(await topics('')).toEqual(['customers/create']);
    expect(await topics('?status=done')).toEqual(['customers/create']);
    expect(await topics('?source=all')).toEqual(['loyalty/visit', 'customers/create']);
    await s.db.updateTable('webhook_deliveries').set({ status: 'dead' }).where('topic', '=', 'loyalty/visit').execute();
    expect(await topics('?status=dead')).toEqual(['loyalty/visit']);
    const bad = await s.call('GET', '/api/webhook-deliveries?source=shopper');
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { details: unknown[] } }).error.details).toEqual([{ path: 'source', message: 'Must be one of platform, all' }]);
  });

  it('is never taken from the platform webhook route', async () => {
    const s = await eventsApp();
    const res = await s.deliver('loyalty/visit', { customerId: CUSTOMER, at: '2026-11-25T15:00:00Z', key: 'k' });
    expect(res.status).toBe(404);
    expect((await json<{ error: { code: string } }>(res)).error.code).toBe('unknown_topic');
  });
});

describe('storefront birthday', () => {
  it('saves MM/DD, refuses anything else with the field path, and needs a signed-in shopper', async () => {
    const s = await eventsApp();
    expect((await s.proxy('POST', '/birthday', { birthday: '05/17' }, { customer: null })).status).toBe(401);
    const bad = await s.proxy('POST', '/birthday', { birthday: '13/40' });
    expect(bad.status).toBe(422);
    expect((await json<{ error: { message: string; details: unknown[] } }>(bad)).error).toMatchObject({ message: 'Birthday is invalid', details: [{ path: '/birthday', message: 'Birthday is invalid' }] });
    const ok = await s.proxy('POST', '/birthday', { birthday: '05/17' });
    expect(ok.status).toBe(200);
    expect(await json<unknown>(ok)).toEqual({ data: { birthday: '05/17' } });
  });
});

describe('storefront claims', () => {
  it('awards a social follow once within its lifetime limit, and says why not afterwards', async () => {
    const s = await eventsApp();
    const id = await s.program('follow_instagram', { earnPoint: 50, socialUrl: 'https://instagram.com/myshop/' });
    const claim = async () => json<{ data: { awarded: number; reason?: string } }>(await s.proxy('POST', '/claim', { programId: id }));
    expect((await claim()).data).toEqual({ awarded: 50 });
    expect((await claim()).data.awarded).toBe(0);
    s.clock.now = new Date('2026-12-02T15:00:00Z');
    expect((await claim()).data).toMatchObject({ awarded: 0, reason: 'limit_reached' });
    expect(await s.balance()).toBe(50);
  });

  it('awards a survey only with an answer long enough, and refuses guests and unclaimable programs', async () => {
    const s = await eventsApp();
    const survey = await s.program('fill_survey', { earnPoint: 40, surveyUrl: 'https://example.com/survey', minimumCharacters: 10 });
    const signUp = await s.program('sign_up', { earnPoint: 100 });
    expect((await s.proxy('POST', '/claim', { programId: survey })).status).toBe(422);
    expect((await json<{ data: { awarded: number; reason?: string } }>(await s.proxy('POST', '/claim', { programId: survey, answer: 'short' }))).data).toMatchObject({ awarded: 0, reason: 'answer_too_short' });
    s.clock.now = new Date('2026-11-26T15:00:00Z');
    expect((await json<{ data: { awarded: number } }>(await s.proxy('POST', '/claim', { programId: survey, answer: 'Loved the fast delivery' }))).data.awarded).toBe(40);
    expect((await s.proxy('POST', '/claim', { programId: survey, answer: 'Loved it all' }, { customer: null })).status).toBe(401);
    const wrong = await s.proxy('POST', '/claim', { programId: signUp });
    expect(wrong.status).toBe(422);
    expect((await s.proxy('POST', '/claim', { programId: 'nope' })).status).toBe(404);
    const entry = (await s.entries()).at(-1)!;
    expect(JSON.parse(entry.explanation)).toMatchObject({ event: 'fill_survey', answer: 'Loved the fast delivery' });
  });
});
