/**
 * Customers in the admin (issue 10): the list (tabs, search, sort, cursor pages), the profile with
 * balances, the activity tabs, adjusting points (never below zero without the explicit choice) and
 * excluding / letting a customer join again — each with its ledger or membership effect.
 */
import { describe, expect, it } from 'vitest';
import { makeApp } from '../support/app';
import { orderBody, placeOrderData } from '../support/factories';

type Row = { id: string; email: string; firstName: string; type: string; points: number; pendingPoints: number };
type Page = { data: Row[]; pageInfo: { hasNextPage: boolean; endCursor: string | null }; total: number };
type Profile = Row & { lifetimePoints: number; spentPoints: number; events: { kind: string; actor: string; detail: { note: string } }[] };
type Issue = { path: string; message: string };

const customer = (n: number, first = 'Ada', last = `Number${n}`) => ({ id: `${7100000000000000000n + BigInt(n)}`, email: `c${n}@example.com`, first_name: first, last_name: last });

/** An app with one program (1 point per $1) and customers 1…`count`, customer n having ordered n × $10. */
async function shopWithCustomers(count: number) {
  const t = await makeApp();
  await t.call('POST', '/api/kinds/earning.place_order/docs', { data: placeOrderData({ earnPoint: 1, rateMoney: 1 }) });
  for (let n = 1; n <= count; n++) {
    const res = await t.deliverOrder(orderBody({ customer: customer(n, n % 2 ? 'Ada' : 'Grace') }, [{ price: `${n * 10}.00` }]));
    expect(res.status).toBe(200);
  }
  const get = async <T>(path: string) => {
    const res = await t.call('GET', path);
    expect(res.status).toBe(200);
    return (await res.json()) as T;
  };
  return { ...t, get };
}

describe('the customers list', () => {
  it('pages through every customer by points, high to low, with a cursor and the total', async () => {
    const { get } = await shopWithCustomers(25);
    const first = await get<Page>('/api/customers?limit=10');
    expect(first.total).toBe(25);
    expect(first.data.map((r) => r.points)).toEqual([250, 240, 230, 220, 210, 200, 190, 180, 170, 160]);
    expect(first.pageInfo.hasNextPage).toBe(true);
    const second = await get<Page>(`/api/customers?limit=10&after=${first.pageInfo.endCursor}`);
    const third = await get<Page>(`/api/customers?limit=10&after=${second.pageInfo.endCursor}`);
    expect(third.pageInfo.hasNextPage).toBe(false);
    const all = [...first.data, ...second.data, ...third.data];
    expect(all).toHaveLength(25);
    expect(new Set(all.map((r) => r.id)).size).toBe(25);
    expect(all.map((r) => r.points)).toEqual(Array.from({ length: 25 }, (_, i) => (25 - i) * 10));
  });

  it('shows the tier stats of each customer: tier points, amount spent in minor units and orders', async () => {
    const { get } = await shopWithCustomers(2);
    const rows = (await get<{ data: (Row & { tierStats: unknown })[] }>('/api/customers?sort=points_asc')).data;
    expect(rows.map((r) => r.tierStats)).toEqual([
      { tierPoints: 10, amountSpentMinor: 1000, orders: 1 },
      { tierPoints: 20, amountSpentMinor: 2000, orders: 1 },
    ]);
  });

  it('sorts low to high and by last update', async () => {
    const { get } = await shopWithCustomers(4);
    expect((await get<Page>('/api/customers?sort=points_asc')).data.map((r) => r.points)).toEqual([10, 20, 30, 40]);
    const byUpdate = await get<Page>('/api/customers?sort=updated_desc');
    expect(byUpdate.data).toHaveLength(4);
  });

  it('finds a customer by full e-mail (any case) or by the start of a name', async () => {
    const { get } = await shopWithCustomers(6);
    expect((await get<Page>('/api/customers?search=C3%40Example.com')).data.map((r) => r.email)).toEqual(['c3@example.com']);
    const graces = await get<Page>('/api/customers?search=grac');
    expect(graces.total).toBe(3);
    expect(graces.data.every((r) => r.firstName === 'Grace')).toBe(true);
    expect((await get<Page>('/api/customers?search=number5')).data.map((r) => r.email)).toEqual(['c5@example.com']);
    expect((await get<Page>('/api/customers?search=%25')).total).toBe(0); // a % is a character, not a wildcard
    expect((await get<Page>('/api/customers?search=_')).total).toBe(0); // and so is _
    // The start of the full name, any case; a first name alone finds every customer with it.
    expect((await get<Page>('/api/customers?search=ADA%20NUMBER3')).data.map((r) => r.email)).toEqual(['c3@example.com']);
    expect((await get<Page>('/api/customers?search=Ada')).total).toBe(3);
    expect((await get<Page>('/api/customers?search=adb')).total).toBe(0);
  });

  it('shows each tab its customers', async () => {
    const { get, call } = await shopWithCustomers(3);
    const [a] = (await get<Page>('/api/customers')).data;
    expect((await call('POST', `/api/customers/${a!.id}/exclude`, { note: 'asked to leave' })).status).toBe(200);
    expect((await get<Page>('/api/customers?tab=left')).data.map((r) => r.id)).toEqual([a!.id]);
    expect((await get<Page>('/api/customers?tab=member')).total).toBe(2);
    expect((await get<Page>('/api/customers?tab=guest')).total).toBe(0);
  });

  it('refuses unknown tabs, sorts, page sizes and foreign cursors with the parameter named', async () => {
    const { call } = await shopWithCustomers(1);
    for (const [query, path] of [['tab=vip', 'tab'], ['sort=name', 'sort'], ['limit=7', 'limit'], ['after=bm9wZQ', 'after']] as const) {
      const res = await call('GET', `/api/customers?${query}`);
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: { details: Issue[] } }).error.details[0]!.path).toBe(path);
    }
  });
});

describe('a customer profile and its activity', () => {
  it('shows balances and the order awards with their stored explanation, newest first, paged', async () => {
    const { get, deliverOrder } = await shopWithCustomers(1);
    for (let i = 0; i < 3; i++) await deliverOrder(orderBody({ customer: customer(1) }, [{ price: '5.00' }]));
    const id = customer(1).id;
    const profile = (await get<{ data: Profile }>(`/api/customers/${id}`)).data;
    expect(profile).toMatchObject({ points: 25, pendingPoints: 0, lifetimePoints: 25, spentPoints: 0, type: 'member' });
    const page = await get<{ data: { points: number; explanation: { decision: { working: { rate: unknown } } } }[]; pageInfo: Page['pageInfo'] }>(`/api/customers/${id}/activity?limit=10&tab=orders`);
    expect(page.data.map((e) => e.points)).toHaveLength(4);
    expect(page.data[0]!.explanation.decision.working.rate).toEqual({ earnPoint: 1, rateMoney: 1, rateItem: 1 });
    const first = await get<{ data: unknown[]; pageInfo: Page['pageInfo'] }>(`/api/customers/${id}/activity?limit=10&tab=all`);
    expect(first.pageInfo.hasNextPage).toBe(false);
    expect((await get<{ data: unknown[] }>(`/api/customers/${id}/activity?tab=admin`)).data).toEqual([]);
  });

  it('answers 404 for a customer of another shop or none', async () => {
    const { call } = await shopWithCustomers(0);
    expect((await call('GET', '/api/customers/123')).status).toBe(404);
    expect((await call('GET', '/api/customers/123/activity')).status).toBe(404);
  });
});

describe('adjusting points', () => {
  it('adds and subtracts with notes and who did it, moving the balance and the list order', async () => {
    const { get, call } = await shopWithCustomers(2);
    const id = customer(1).id; // 10 points
    const added = await call('POST', `/api/customers/${id}/adjust`, { points: 500, adminNote: 'goodwill', customerNote: 'Sorry for the delay' });
    expect(added.status).toBe(200);
    expect(((await added.json()) as { data: Profile }).data.points).toBe(510);
    expect((await get<Page>('/api/customers')).data[0]!.id).toBe(id);
    const taken = await call('POST', `/api/customers/${id}/adjust`, { points: -10 });
    expect(((await taken.json()) as { data: Profile }).data.points).toBe(500);
    const admin = await get<{ data: { type: string; points: number; sourceType: string; explanation: { adminNote: string; customerNote: string; actor: string } }[] }>(`/api/customers/${id}/activity?tab=admin`);
    expect(admin.data.map((e) => [e.type, e.points])).toEqual([
      ['minus_point', -10],
      ['earn_point', 500],
    ]);
    expect(admin.data[1]!.explanation).toMatchObject({ adminNote: 'goodwill', customerNote: 'Sorry for the delay', actor: 'admin:1' });
  });

  it('never takes the balance below zero unless told to', async () => {
    const { call } = await shopWithCustomers(1);
    const id = customer(1).id; // 10 points
    const refused = await call('POST', `/api/customers/${id}/adjust`, { points: -11 });
    expect(refused.status).toBe(409);
    const body = (await refused.json()) as { error: { code: string; details: Issue[] } };
    expect(body.error.code).toBe('negative_balance');
    expect(body.error.details).toEqual([{ path: '/points', message: 'At most 10 points can be subtracted' }]);
    const forced = await call('POST', `/api/customers/${id}/adjust`, { points: -11, allowNegative: true });
    expect(((await forced.json()) as { data: Profile }).data.points).toBe(-1);
  });

  it('refuses a bad amount or note with the field path, writing nothing', async () => {
    const { call, get } = await shopWithCustomers(1);
    const id = customer(1).id;
    const res = await call('POST', `/api/customers/${id}/adjust`, { points: 1.5, adminNote: 'x'.repeat(501), allowNegative: 'yes', extra: 1 });
    expect(res.status).toBe(422);
    const paths = ((await res.json()) as { error: { details: Issue[] } }).error.details.map((d) => d.path);
    expect(paths).toEqual(['/points', '/adminNote', '/allowNegative', '/extra']);
    for (const points of [0, 1_000_000_001, '5']) expect((await call('POST', `/api/customers/${id}/adjust`, { points })).status).toBe(422);
    expect((await get<{ data: Profile }>(`/api/customers/${id}`)).data.points).toBe(10);
    expect((await call('POST', '/api/customers/404/adjust', { points: 5 })).status).toBe(404);
  });
});

describe('membership', () => {
  it('excludes a member, who then earns nothing, and lets them join again, recording who and when', async () => {
    const { call, get, deliverOrder } = await shopWithCustomers(1);
    const id = customer(1).id;
    const excluded = await call('POST', `/api/customers/${id}/exclude`, { note: 'fraud check' });
    expect(((await excluded.json()) as { data: Profile }).data.type).toBe('left');
    expect((await call('POST', `/api/customers/${id}/exclude`)).status).toBe(409);
    await deliverOrder(orderBody({ customer: customer(1) }, [{ price: '99.00' }]));
    expect((await get<{ data: Profile }>(`/api/customers/${id}`)).data.points).toBe(10);
    const back = await call('POST', `/api/customers/${id}/rejoin`);
    const profile = ((await back.json()) as { data: Profile }).data;
    expect(profile.type).toBe('member');
    expect(profile.events.map((e) => [e.kind, e.actor])).toEqual([
      ['rejoined', 'admin:1'],
      ['excluded', 'admin:1'],
    ]);
    expect(profile.events[1]!.detail.note).toBe('fraud check');
    await deliverOrder(orderBody({ customer: customer(1) }, [{ price: '99.00' }]));
    expect((await get<{ data: Profile }>(`/api/customers/${id}`)).data.points).toBe(109);
    expect((await call('POST', `/api/customers/${id}/rejoin`)).status).toBe(409);
  });
});

describe('bulk actions', () => {
  it('adjusts every selected customer in one go, or none when one would go below zero', async () => {
    const { call, get } = await shopWithCustomers(3); // 10, 20, 30 points
    const ids = [customer(1).id, customer(2).id, customer(3).id];
    const refused = await call('POST', '/api/customers/bulk/adjust', { customerIds: ids, points: -15, adminNote: 'clawback' });
    expect(refused.status).toBe(409);
    const error = ((await refused.json()) as { error: { code: string; message: string; details: Issue[] } }).error;
    expect(error.code).toBe('negative_balance');
    expect(error.message).toMatch(/^1 of the 3 customers have fewer than 15 points available/);
    expect((await get<Page>('/api/customers?sort=points_asc')).data.map((r) => r.points)).toEqual([10, 20, 30]);
    const done = await call('POST', '/api/customers/bulk/adjust', { customerIds: ids, points: 5, adminNote: 'launch gift' });
    expect(done.status).toBe(200);
    expect(((await done.json()) as { data: { count: number } }).data.count).toBe(3);
    expect((await get<Page>('/api/customers?sort=points_asc')).data.map((r) => r.points)).toEqual([15, 25, 35]);
  });

  it('excludes several members at once and refuses a selection with a customer who already left', async () => {
    const { call, get } = await shopWithCustomers(3);
    const ids = [customer(1).id, customer(2).id];
    expect((await call('POST', '/api/customers/bulk/exclude', { customerIds: ids, note: 'test accounts' })).status).toBe(200);
    expect((await get<Page>('/api/customers?tab=left')).total).toBe(2);
    const again = await call('POST', '/api/customers/bulk/exclude', { customerIds: [customer(3).id, customer(1).id] });
    expect(again.status).toBe(409);
    expect(((await again.json()) as { error: { details: Issue[] } }).error.details.map((d) => d.path)).toEqual(['/customerIds/1']);
    expect((await get<Page>('/api/customers?tab=member')).data.map((r) => r.id)).toEqual([customer(3).id]);
  });

  it('refuses an empty, oversized or malformed selection', async () => {
    const { call } = await shopWithCustomers(1);
    for (const customerIds of [[], 'all', Array.from({ length: 251 }, (_, i) => `${i}`), [5]]) {
      const res = await call('POST', '/api/customers/bulk/adjust', { customerIds, points: 5 });
      expect(res.status).toBe(422);
      expect(((await res.json()) as { error: { details: Issue[] } }).error.details[0]!.path).toBe('/customerIds');
    }
    expect((await call('POST', '/api/customers/bulk/adjust', { customerIds: [customer(1).id, 'nobody'], points: 5 })).status).toBe(404);
  });
});

describe('birthday', () => {
  it('sets a MM/DD birthday with who and when, refuses an impossible one with the spec message, and clears it', async () => {
    const { call, get } = await shopWithCustomers(1);
    const id = customer(1).id;
    const set = await call('PATCH', `/api/customers/${id}`, { birthday: '02/29' });
    expect(set.status).toBe(200);
    expect(((await set.json()) as { data: Profile & { birthday: string } }).data.birthday).toBe('02/29');
    for (const birthday of ['13/01', '04/31', '2/3', '1990-02-03', 42]) {
      const res = await call('PATCH', `/api/customers/${id}`, { birthday });
      expect(res.status).toBe(422);
      expect(((await res.json()) as { error: { details: Issue[] } }).error.details).toEqual([{ path: '/birthday', message: 'Birthday is invalid' }]);
    }
    const cleared = await call('PATCH', `/api/customers/${id}`, { birthday: null });
    const profile = ((await cleared.json()) as { data: Profile & { birthday: string | null } }).data;
    expect(profile.birthday).toBeNull();
    expect(profile.events.map((e) => e.kind)).toEqual(['birthday_changed', 'birthday_changed']);
    const all = await get<{ data: { entry: string; type: string }[] }>(`/api/customers/${id}/activity?tab=all`);
    expect(all.data.map((e) => [e.entry, e.type])).toEqual([
      ['event', 'birthday_changed'],
      ['event', 'birthday_changed'],
      ['ledger', 'earn_point'],
    ]);
    expect((await get<{ data: unknown[] }>(`/api/customers/${id}/activity?tab=points`)).data).toHaveLength(1);
  });
});

describe('converting all members to guests', () => {
  it('needs the typed confirmation, then makes every member a guest who keeps points but earns nothing more', async () => {
    const { call, get, deliverOrder } = await shopWithCustomers(3);
    await call('POST', `/api/customers/${customer(3).id}/exclude`);
    for (const confirm of [undefined, 'convert', true]) {
      const res = await call('POST', '/api/customers/convert-to-guests', confirm === undefined ? {} : { confirm });
      expect(res.status).toBe(422);
      expect(((await res.json()) as { error: { details: Issue[] } }).error.details[0]!.path).toBe('/confirm');
    }
    expect((await get<Page>('/api/customers?tab=member')).total).toBe(2);
    const res = await call('POST', '/api/customers/convert-to-guests', { confirm: 'CONVERT' });
    expect(((await res.json()) as { data: { count: number } }).data.count).toBe(2);
    expect((await get<Page>('/api/customers?tab=guest')).data.map((r) => [r.id, r.points]).sort()).toEqual([
      [customer(1).id, 10],
      [customer(2).id, 20],
    ].sort());
    expect((await get<Page>('/api/customers?tab=left')).total).toBe(1);
    await deliverOrder(orderBody({ customer: customer(1) }, [{ price: '50.00' }]));
    const profile = (await get<{ data: Profile }>(`/api/customers/${customer(1).id}`)).data;
    expect(profile.points).toBe(10);
    expect(profile.events.map((e) => e.kind)).toEqual(['converted_to_guest']);
  });
});

describe('the B2B tab', () => {
  it('lists the customers placed in a partner tier, with the tier named', async () => {
    const { db, get } = await shopWithCustomers(3);
    const now = new Date().toISOString();
    await db.insertInto('documents').values({ id: 'partner-1', shop_id: 'test-shop.myshopify.com', kind: 'tier.partner', schema_version: 1, version: 1, data: JSON.stringify({ name: 'Wholesale Gold' }), created_at: now, updated_at: now }).execute();
    await db.updateTable('customers').set({ tier_id: 'partner-1' }).where('id', '=', customer(2).id).execute();
    expect((await get<Page>('/api/customers?tab=b2b')).data.map((r) => [r.id, (r as Row & { tierName: string }).tierName])).toEqual([[customer(2).id, 'Wholesale Gold']]);
  });
});
