/**
 * The floating booking popup and banner dismissal through the API (coverage SH10; spec 000 §2, §4
 * "Floating booking popup", "Banner dismissal", §7 `GET /shops`, `POST /shop` partial shop body):
 * `GET /api/shops` says whether the popup shows, `POST /api/shop` `{ bannersDismiss }` adds ids to
 * the shop's list (idempotently, whitelisted, 422 with field paths), booking the call from the popup
 * records the request and dismisses it, and the admin's CSP frames only the guide video's host.
 */
import { describe, expect, it } from 'vitest';
import { createApp } from '../../server/app';
import { signSessionToken } from '../../server/auth';
import type { AppDeps } from '../../server/deps';
import { contentSecurityPolicy, GUIDE_VIDEO_ORIGIN, guideVideoOrigin } from '../../server/security-headers';
import { ensureShop } from '../../server/store/shops';
import guideVideoConfig from '../../ui/areas/dashboard/guide-video.json';

const guideVideo = guideVideoConfig as { url: string | null };
import { AUTH, openTestDatabase, repoRegistry, SHOP } from '../support/app';

type Json = Record<string, unknown>;
type Issue = { path: string; message: string };

/** An app whose shop was installed `installedDaysAgo` days before its clock, on `plan` and the platform plan `shopifyPlan`. */
async function shopApp({ plan = 'free', shopifyPlan = 'shopify_plus', installedDaysAgo = 1 }: { plan?: string; shopifyPlan?: string; installedDaysAgo?: number } = {}) {
  const db = await openTestDatabase();
  const clock = new Date('2026-03-10T12:00:00.000Z');
  const installedAt = new Date(clock.getTime() - installedDaysAgo * 86_400_000).toISOString();
  await ensureShop(db, SHOP, installedAt, { plan, settings: JSON.stringify({ shopifyPlan }) });
  const deps: AppDeps = { db, registry: repoRegistry(), auth: AUTH, now: () => clock };
  const app = createApp(deps);
  const token = await signSessionToken(AUTH, SHOP);
  const call = async (method: string, path: string, body?: unknown): Promise<{ status: number; body: Json }> => {
    const res = await app.request(path, { method, headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }, ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }) });
    return { status: res.status, body: (await res.json()) as Json };
  };
  const popup = async () => (await call('GET', '/api/shops')).body.bookingPopup as { show: boolean; hiddenBecause: string[] };
  const settings = async () => ((await call('GET', '/api/shops')).body.shop as { settings: Json }).settings;
  const issues = (body: Json) => (body.error as { details: Issue[] }).details;
  return { call, popup, settings, issues };
}

describe('GET /api/shops bookingPopup (spec 000 §4)', () => {
  it('shows the popup to a shop installed a day ago on Shopify Plus and the free plan', async () => {
    const { popup } = await shopApp();
    expect(await popup()).toEqual({ show: true, hiddenBecause: [] });
  });

  it('hides it from a shop installed 8 days ago, on the basic platform plan, or on Advanced', async () => {
    expect(await (await shopApp({ installedDaysAgo: 8 })).popup()).toEqual({ show: false, hiddenBecause: ['installed_over_7_days'] });
    expect(await (await shopApp({ shopifyPlan: 'basic' })).popup()).toEqual({ show: false, hiddenBecause: ['platform_plan_not_higher'] });
    expect(await (await shopApp({ plan: 'advanced_2025' })).popup()).toEqual({ show: false, hiddenBecause: ['top_plan'] });
  });
});

describe('POST /api/shop bannersDismiss (spec 000 §4 Banner dismissal, §7)', () => {
  it('adds the id to the list and hides the popup for good', async () => {
    const { call, popup, settings } = await shopApp();
    const saved = await call('POST', '/api/shop', { bannersDismiss: ['booking_popup'] });
    expect(saved).toEqual({ status: 200, body: { data: { bannersDismiss: ['booking_popup'] } } });
    expect(await popup()).toEqual({ show: false, hiddenBecause: ['dismissed'] });
    expect((await settings()).bannersDismiss).toEqual(['booking_popup']);
  });

  it('is idempotent and keeps the ids dismissed before', async () => {
    const { call } = await shopApp();
    await call('POST', '/api/shop', { bannersDismiss: ['exclusive_deal'] });
    await call('POST', '/api/shop', { bannersDismiss: ['booking_popup'] });
    const again = await call('POST', '/api/shop', { bannersDismiss: ['booking_popup', 'booking_popup'] });
    expect(again.body.data).toEqual({ bannersDismiss: ['exclusive_deal', 'booking_popup'] });
  });

  it('loses no id when two dismissals arrive at once', async () => {
    const { call, settings } = await shopApp();
    await Promise.all([call('POST', '/api/shop', { bannersDismiss: ['a'] }), call('POST', '/api/shop', { bannersDismiss: ['b'] })]);
    expect([...((await settings()).bannersDismiss as string[])].sort()).toEqual(['a', 'b']);
  });

  it('saves a promo dismissal time and a banner id in one body', async () => {
    const { call } = await shopApp();
    const saved = await call('POST', '/api/shop', { promoShowAt: '2026-03-10T12:00:00.000Z', bannersDismiss: ['booking_popup'] });
    expect(saved.body.data).toEqual({ promoShowAt: '2026-03-10T12:00:00.000Z', bannersDismiss: ['booking_popup'] });
  });

  it('refuses bad ids with the path of each, and writes nothing', async () => {
    const { call, issues, popup } = await shopApp();
    const bad = await call('POST', '/api/shop', { bannersDismiss: ['booking_popup', 42, '', 'has space', 'x'.repeat(65)] });
    expect(bad.status).toBe(422);
    expect(issues(bad.body).map((d) => d.path)).toEqual(['/bannersDismiss/1', '/bannersDismiss/2', '/bannersDismiss/3', '/bannersDismiss/4']);
    expect((await popup()).show).toBe(true);
  });

  it('refuses a bannersDismiss that is not a non-empty list', async () => {
    const { call, issues } = await shopApp();
    for (const value of ['booking_popup', [], null, { id: 'booking_popup' }]) {
      const bad = await call('POST', '/api/shop', { bannersDismiss: value });
      expect(bad.status).toBe(422);
      expect(issues(bad.body).map((d) => d.path)).toEqual(['/bannersDismiss']);
    }
  });

  it('refuses fields outside the whitelist, naming them, and writes nothing', async () => {
    const { call, issues, popup, settings } = await shopApp();
    const bad = await call('POST', '/api/shop', { bannersDismiss: ['booking_popup'], plan: 'enterprise_2025', shopifyPlan: 'basic' });
    expect(bad.status).toBe(422);
    expect(issues(bad.body).map((d) => d.path)).toEqual(['/plan', '/shopifyPlan']);
    expect((await popup()).show).toBe(true);
    expect((await settings()).shopifyPlan).toBe('shopify_plus');
  });

  it('refuses an empty body and a body that is not an object', async () => {
    const { call } = await shopApp();
    expect((await call('POST', '/api/shop', {})).status).toBe(422);
    expect((await call('POST', '/api/shop', '["booking_popup"]')).status).toBe(422);
  });

  it('refuses more than 20 ids at once', async () => {
    const { call, issues } = await shopApp();
    const bad = await call('POST', '/api/shop', { bannersDismiss: Array.from({ length: 21 }, (_, i) => `b${i}`) });
    expect(bad.status).toBe(422);
    expect(issues(bad.body)[0]?.path).toBe('/bannersDismiss');
  });
});

describe('booking the call from the popup (POST /api/subscription/onboarding-call source booking_popup)', () => {
  it('records the request with its source and dismisses the popup, on a plan without the onboarding call', async () => {
    const { call, popup, settings } = await shopApp({ plan: 'free' });
    const booked = await call('POST', '/api/subscription/onboarding-call', { source: 'booking_popup' });
    expect(booked.status).toBe(200);
    expect(booked.body.data).toMatchObject({ requestedAt: '2026-03-10T12:00:00.000Z', note: null });
    expect((await settings()).onboardingCall).toEqual({ requestedAt: '2026-03-10T12:00:00.000Z', note: null, source: 'booking_popup' });
    expect(await popup()).toEqual({ show: false, hiddenBecause: ['dismissed'] });
  });

  it('answers 409 when the shop is not shown the popup, and still 403 for the plan card below Advanced', async () => {
    const { call } = await shopApp({ shopifyPlan: 'basic' });
    expect((await call('POST', '/api/subscription/onboarding-call', { source: 'booking_popup' })).status).toBe(409);
    expect((await call('POST', '/api/subscription/onboarding-call', {})).status).toBe(403);
  });

  it('refuses an unknown source with its path', async () => {
    const { call, issues } = await shopApp();
    const bad = await call('POST', '/api/subscription/onboarding-call', { source: 'popup' });
    expect(bad.status).toBe(422);
    expect(issues(bad.body).map((d) => d.path)).toEqual(['/source']);
  });
});

describe('guide video frame (spec 000 §2)', () => {
  it("lets admin pages frame only the app itself and the configured video's host, none while no video is configured", async () => {
    const { mkdtempSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const uiDir = mkdtempSync(join(tmpdir(), 'ui-'));
    writeFileSync(join(uiDir, 'index.html'), '<!doctype html><title>t</title>');
    const app = createApp({ db: await openTestDatabase(), registry: repoRegistry(), auth: AUTH, uiDir });
    // The served pages follow guide-video.json (no video published yet: the app itself only).
    expect(GUIDE_VIDEO_ORIGIN).toBe(guideVideo.url ? new URL(guideVideo.url).origin : null);
    for (const path of ['/home', `/embed/home?shop=${SHOP}`]) {
      const csp = (await app.request(path)).headers.get('Content-Security-Policy') ?? '';
      expect(csp.split('; ').find((d) => d.startsWith('frame-src '))).toBe(contentSecurityPolicy(path.split('?')[0]!, SHOP).split('; ').find((d) => d.startsWith('frame-src ')));
    }
    const frameSrc = (origin: string | null) => contentSecurityPolicy('/home', undefined, origin).split('; ').find((d) => d.startsWith('frame-src '));
    expect(frameSrc(null)).toBe("frame-src 'self'");
    expect(frameSrc(guideVideoOrigin('https://www.youtube-nocookie.com/embed/abc123'))).toBe("frame-src 'self' https://www.youtube-nocookie.com");
    expect(() => guideVideoOrigin('http://videos.example.com/guide')).toThrow(/must be https/);
  });
});
