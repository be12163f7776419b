/**
 * The developer zone's recommended apps (spec 001 §2 Recommended Apps Manager, §3, §4, §5, §7;
 * issue 12): staff only (STAFF_USER_IDS), create, edit, delete, reorder; merchants see only the
 * active apps in priority order (the dashboard) and cannot change anything.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isStaff } from '../../server/routes/devzone';
import { signSessionToken } from '../../server/auth';
import { AUTH, makeApp, SHOP } from '../support/app';

type App = { id: string; title: string; priority: number; isActive: boolean; integrationUrl: string | null };
const STAFF = 'staff-42';
const app = (title: string, extra: Record<string, unknown> = {}) => ({
  title,
  description: `${title} does things.\nSecond line.`,
  img: 'https://cdn.example.com/logo.png',
  appStoreUrl: `https://apps.example.com/${title.toLowerCase().replace(/\s+/g, '-')}`,
  type: 'appInstall',
  isActive: true,
  ...extra,
});

async function zone() {
  const t = await makeApp();
  const staffToken = await signSessionToken(AUTH, SHOP, STAFF);
  const as = (token: string) => (method: string, path: string, body?: unknown) =>
    Promise.resolve(t.app.request(path, { method, headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) }));
  const staff = as(staffToken);
  const list = async (call = staff) => ((await (await call('GET', '/api/recommended-apps')).json()) as { data: App[] }).data;
  const create = async (title: string, extra: Record<string, unknown> = {}) => ((await (await staff('POST', '/api/recommended-apps', app(title, extra))).json()) as { data: App }).data;
  return { ...t, staff, merchant: t.call, list, create };
}

describe('recommended apps manager', () => {
  let saved: string | undefined;
  beforeEach(() => {
    saved = process.env.STAFF_USER_IDS;
    process.env.STAFF_USER_IDS = `${STAFF}, staff-7`;
  });
  afterEach(() => {
    if (saved === undefined) delete process.env.STAFF_USER_IDS;
    else process.env.STAFF_USER_IDS = saved;
  });

  it('tells staff from merchants by the STAFF_USER_IDS list (demo user only when no list is set)', async () => {
    const z = await zone();
    expect(((await (await z.staff('GET', '/api/dev-zone/access')).json()) as { data: unknown }).data).toEqual({ staff: true });
    expect(((await (await z.merchant('GET', '/api/dev-zone/access')).json()) as { data: unknown }).data).toEqual({ staff: false });
    expect(isStaff('1', true, {})).toBe(true);
    expect(isStaff('1', false, {})).toBe(false);
    expect(isStaff('1', true, { STAFF_USER_IDS: 'staff-7' })).toBe(false);
  });

  it('answers 403 to a merchant who tries to create, edit, delete or reorder', async () => {
    const z = await zone();
    const a = await z.create('Reviews');
    for (const [method, path, body] of [
      ['POST', '/api/recommended-apps', app('Mine')],
      ['PUT', `/api/recommended-apps/${a.id}`, app('Changed')],
      ['DELETE', `/api/recommended-apps/${a.id}`, undefined],
      ['POST', '/api/recommended-apps/update-priority', { orderedIds: [a.id] }],
    ] as const) {
      const res = await z.merchant(method, path, body);
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('staff_only');
    }
    expect((await z.list()).map((x) => x.title)).toEqual(['Reviews']);
  });

  it('creates with auto-assigned priorities, edits, and deletes with the spec messages', async () => {
    const z = await zone();
    const created = await z.staff('POST', '/api/recommended-apps', app('Reviews', { integrationUrl: '/integration/judgeme' }));
    expect(created.status).toBe(201);
    const first = (await created.json()) as { data: App };
    expect(first).toMatchObject({ message: 'App created successfully', data: { title: 'Reviews', priority: 1, integrationUrl: '/integration/judgeme' } });
    const second = await z.create('Email');
    expect(second.priority).toBe(2);

    const edited = await z.staff('PUT', `/api/recommended-apps/${second.id}`, app('Email marketing', { isActive: false }));
    expect(edited.status).toBe(200);
    expect(await edited.json()).toMatchObject({ success: true, data: { title: 'Email marketing', isActive: false, priority: 2 } });

    const deleted = await z.staff('DELETE', `/api/recommended-apps/${first.data.id}`);
    expect(await deleted.json()).toEqual({ success: true, message: 'App deleted successfully' });
    expect((await z.list()).map((x) => x.title)).toEqual(['Email marketing']);
    expect((await z.staff('DELETE', `/api/recommended-apps/${second.id}x`)).status).toBe(404);
  });

  it('requires title, description, image URL and App Store URL, each at its field', async () => {
    const z = await zone();
    const res = await z.staff('POST', '/api/recommended-apps', { title: ' ', type: 'appInstall' });
    expect(res.status).toBe(422);
    const { error } = (await res.json()) as { error: { details: { path: string; message: string }[] } };
    expect(error.details).toEqual(
      expect.arrayContaining(['/title', '/description', '/img', '/appStoreUrl'].map((path) => ({ path, message: 'This field is required' }))),
    );
    expect(error.details.map((d) => d.path)).not.toContain('/integrationUrl');
    expect((await z.staff('POST', '/api/recommended-apps', app('Bad', { img: 'logo.png' }))).status).toBe(422);
  });

  it('saves the dragged order as priorities 1..n and merchants see active apps in that order', async () => {
    const z = await zone();
    const a = await z.create('A');
    const b = await z.create('B');
    const c = await z.create('C', { isActive: false });
    const res = await z.staff('POST', '/api/recommended-apps/update-priority', { orderedIds: [c.id, a.id, b.id] });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ message: 'Priority updated successfully' });
    expect((await z.list()).map((x) => [x.title, x.priority])).toEqual([['C', 1], ['A', 2], ['B', 3]]);
    // The dashboard (a merchant) sees only the active ones.
    expect((await z.list(z.merchant)).map((x) => x.title)).toEqual(['A', 'B']);
    const unknown = await z.staff('POST', '/api/recommended-apps/update-priority', { orderedIds: [a.id, 'nope'] });
    expect(unknown.status).toBe(422);
    expect((await z.list()).map((x) => x.title)).toEqual(['C', 'A', 'B']);
  });
});
