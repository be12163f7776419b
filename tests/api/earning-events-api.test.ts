/**
 * Earning events over the admin API and from review sources (issue 11; spec 001 §3, spec 002 §4):
 * the custom program's trigger and its connection test, the program state rules (streak locked
 * while on, custom program on only when connected, permanent action key), the review app's signed
 * webhook and Google Maps reviews with their instant and approved stages.
 */
import { describe, expect, it } from 'vitest';
import { webhookHmac } from '../../server/webhook-hmac';
import { SHOP } from '../support/app';
import { CUSTOMER, eventsApp } from '../support/earning-events';

type ErrorBody = { error: { code: string; message: string; details?: { path: string; message: string }[] } };
const json = async <T>(res: Response): Promise<T> => (await res.json()) as T;
const customProgram = (overrides: Record<string, unknown> = {}) => ({ title: 'Attend a workshop', status: false, earnPoint: 300, actionKey: 'attend_workshop', connectionStatus: 'not_connected', ...overrides });

describe('custom program', () => {
  it('is switched on only after its connection test passed or was skipped', async () => {
    const s = await eventsApp();
    const on = await s.call('POST', '/api/kinds/earning.custom_program/docs', { data: customProgram({ status: true }) });
    expect(on.status).toBe(409);
    expect((await json<ErrorBody>(on)).error).toMatchObject({ code: 'connection_required', message: 'The program can be turned on only after the connection test succeeds or is skipped' });

    const failed = await s.call('POST', '/api/events/connection-test', { actionKey: 'attend_workshop' });
    expect(failed.status).toBe(409);
    expect((await json<ErrorBody>(failed)).error.code).toBe('connection_failed');
    expect((await s.call('POST', '/api/events/custom', { actionKey: 'attend_workshop', test: true })).status).toBe(200);
    const passed = await s.call('POST', '/api/events/connection-test', { actionKey: 'attend_workshop' });
    expect((await json<{ data: unknown }>(passed)).data).toEqual({ actionKey: 'attend_workshop', connectionStatus: 'connected', skipped: false, testedAt: '2026-11-25T15:00:00.000Z' });
    // A test trigger older than 15 minutes no longer counts; skipping always does.
    s.clock.now = new Date('2026-11-25T15:16:00Z');
    expect((await s.call('POST', '/api/events/connection-test', { actionKey: 'attend_workshop' })).status).toBe(409);
    expect((await json<{ data: { skipped: boolean } }>(await s.call('POST', '/api/events/connection-test', { actionKey: 'attend_workshop', skip: true }))).data.skipped).toBe(true);

    expect((await s.call('POST', '/api/kinds/earning.custom_program/docs', { data: customProgram({ status: true, connectionStatus: 'connected' }) })).status).toBe(201);
    const taken = await s.call('POST', '/api/events/connection-test', { actionKey: 'attend_workshop', skip: true });
    expect(taken.status).toBe(409);
    expect((await json<ErrorBody>(taken)).error).toMatchObject({ code: 'action_key_taken', message: 'Value already exists' });
  });

  it('keeps a saved action key permanent', async () => {
    const s = await eventsApp();
    const id = await s.program('custom_program', customProgram());
    const res = await s.call('PUT', `/api/kinds/earning.custom_program/docs/${id}`, { version: 1, data: customProgram({ actionKey: 'something_else' }) });
    expect(res.status).toBe(409);
    expect((await json<ErrorBody>(res)).error.details).toEqual([{ path: '/actionKey', message: 'The action key is permanent once the program is saved' }]);
    expect((await s.call('PUT', `/api/kinds/earning.custom_program/docs/${id}`, { version: 1, data: customProgram({ earnPoint: 400 }) })).status).toBe(200);
  });

  it('awards the programs with the action key, once per Idempotency-Key, to a known customer', async () => {
    const s = await eventsApp();
    await s.program('custom_program', customProgram({ status: true, connectionStatus: 'connected' }));
    await s.deliver('customers/create', { ...s.customerBody(), id: CUSTOMER });
    const trigger = (key: string, body: Record<string, unknown> = { customerId: CUSTOMER, actionKey: 'attend_workshop' }) =>
      s.app.request('/api/events/custom', { method: 'POST', headers: { Authorization: `Bearer ${s.token}`, 'Content-Type': 'application/json', 'Idempotency-Key': key }, body: JSON.stringify(body) });
    const first = await json<{ data: { awarded: number; duplicate: boolean } }>(await trigger('k-1'));
    expect(first.data).toMatchObject({ awarded: 300, duplicate: false });
    expect((await json<{ data: { awarded: number; duplicate: boolean } }>(await trigger('k-1'))).data).toMatchObject({ awarded: 0, duplicate: true });
    expect((await json<{ data: { awarded: number } }>(await trigger('k-2'))).data.awarded).toBe(300);
    expect(await s.balance()).toBe(600);
    expect((await trigger('k-3', { customerId: CUSTOMER, actionKey: 'unknown_key' })).status).toBe(404);
    expect((await trigger('k-4', { customerId: '999', actionKey: 'attend_workshop' })).status).toBe(404);
    expect((await trigger('k-5', { actionKey: 'attend_workshop' })).status).toBe(422);
    expect((await s.app.request('/api/events/custom', { method: 'POST', body: '{}' })).status).toBe(401);
  });
});

describe('visit streak program', () => {
  it('is locked against edits while on, and can be switched off', async () => {
    const s = await eventsApp();
    const data = { title: 'Visit streak', earnPoint: 10, streakMilestones: [{ day: 7, earnPoint: 100 }], startDate: '2026-11-01', endDate: '2026-12-31' };
    const id = await s.program('streak_interact_website', data);
    const edit = await s.call('PUT', `/api/kinds/earning.streak_interact_website/docs/${id}`, { version: 1, data: { ...data, status: true, earnPoint: 20 } });
    expect(edit.status).toBe(409);
    expect((await json<ErrorBody>(edit)).error.code).toBe('program_locked');
    // Switching it off is not an edit, whatever order the editor sends the fields in.
    const off = Object.fromEntries(Object.entries({ ...data, streakMilestones: [{ earnPoint: 100, day: 7 }], status: false }).reverse());
    expect((await s.call('PUT', `/api/kinds/earning.streak_interact_website/docs/${id}`, { version: 1, data: off })).status).toBe(200);
    expect((await s.call('PUT', `/api/kinds/earning.streak_interact_website/docs/${id}`, { version: 2, data: { ...data, status: false, earnPoint: 20 } })).status).toBe(200);
  });
});

describe('review app webhook', () => {
  const review = { id: 'jdgm-981', customer: { id: Number(CUSTOMER.slice(0, 15)), email: 'kim@example.com', first_name: 'Kim', last_name: 'Lee' }, rating: 5, title: 'Great', body: 'Fits well and washes nicely.', pictures: ['a.jpg'], product_title: 'Linen shirt' };
  const send = (s: Awaited<ReturnType<typeof eventsApp>>, body: unknown, secret = 'jdgm-secret') => {
    const raw = JSON.stringify(body);
    return s.app.request('/api/webhooks/review-app', { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Shop-Domain': SHOP, 'X-Review-App-Hmac-Sha256': webhookHmac(raw, secret) }, body: raw });
  };

  it('records a signed review once and awards the write-review program with the media bonus', async () => {
    const s = await eventsApp();
    expect((await json<ErrorBody>(await send(s, review))).error.message).toBe('Please connect to the review app first');
    expect((await s.call('POST', '/api/kinds/integration.review_app/docs', { data: { app: 'judgeme', appKey: 'jdgm-key', secretKey: 'jdgm-secret', status: 'connected' } })).status).toBe(201);
    await s.program('write_review', { earnPoint: 50, mediaBonusPoints: 20, reviewStatus: 'approveAuto' });
    expect((await send(s, review, 'wrong-secret')).status).toBe(401);
    const res = await send(s, review);
    expect(res.status).toBe(200);
    expect((await json<{ data: unknown }>(res)).data).toMatchObject({ status: 'approved', points: 70 });
    await send(s, review);
    const customerId = CUSTOMER.slice(0, 15);
    expect(await s.balance(customerId)).toBe(70);
    const bad = await send(s, { ...review, customer: null });
    expect(bad.status).toBe(400);
    expect((await json<ErrorBody>(bad)).error.details).toEqual([{ path: '/customer/id', message: 'The reviewer is not a platform customer' }]);
  });
});

describe('Google Maps review', () => {
  it('earns its instant points when submitted and the rest when approved', async () => {
    const s = await eventsApp();
    await s.program('google_maps_review', { earnPoint: 100, instantPoints: 30, googleMapsUrl: 'https://maps.app.goo.gl/AbCdEf123' });
    const invalid = await s.proxy('POST', '/reviews/google-maps', { url: 'https://example.com/review' });
    expect(invalid.status).toBe(422);
    expect((await json<ErrorBody>(invalid)).error.details).toEqual([{ path: '/url', message: 'You must enter a link from Google Maps' }]);
    const submitted = await json<{ data: { review: { id: string; status: string; points: number }; awarded: number } }>(await s.proxy('POST', '/reviews/google-maps', { url: 'https://maps.app.goo.gl/Review42' }));
    expect(submitted.data).toMatchObject({ review: { status: 'pending', points: 30 }, awarded: 30 });
    expect(await s.balance()).toBe(30);
    const approved = await s.call('POST', `/api/reviews/${submitted.data.review.id}/approve`);
    expect((await json<{ data: unknown }>(approved)).data).toMatchObject({ status: 'approved', points: 100 });
    expect(await s.balance()).toBe(100);
    expect((await s.entries()).map((e) => [e.source_id, e.points]).sort((a, b) => Number(a[1]) - Number(b[1]))).toEqual([
      [`google_maps_review:${submitted.data.review.id}:submitted`, 30],
      [`google_maps_review:${submitted.data.review.id}:approved`, 70],
    ]);
  });

  it('takes a product review written in the storefront and needs a signed-in shopper', async () => {
    const s = await eventsApp();
    await s.program('write_review', { earnPoint: 50, minimumCharacters: 10, reviewStatus: 'pending' });
    expect((await s.proxy('POST', '/reviews', { content: 'Fits well and washes nicely.' }, { customer: null })).status).toBe(401);
    const res = await s.proxy('POST', '/reviews', { content: 'Fits well and washes nicely.', rating: 4, reviewId: 'sf-1' });
    expect((await json<{ data: unknown }>(res)).data).toMatchObject({ review: { status: 'pending', points: 0 } });
    expect((await s.proxy('POST', '/reviews', { content: 'Nice', rating: 9 })).status).toBe(422);
  });
});
