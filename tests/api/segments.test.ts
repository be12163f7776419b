/**
 * Customer segments (issue 10; spec 002 §2 "Customer segmentation uses 11 predefined RFM groups",
 * the Left segment tab; §4 "a customer in an excluded segment can be reverted"): RFM groups read
 * through the platform adapter, the settings' excluded groups moving members out of the program and
 * back, the revert that keeps a customer in, and the Admin GraphQL adapter's reading of answers.
 */
import { describe, expect, it } from 'vitest';
import { makeApp, SHOP } from '../support/app';
import { orderBody, placeOrderData } from '../support/factories';
import { LocalCustomerSegments, RFM_GROUPS, ShopifyCustomerSegments, localRfmGroup, type PlatformCustomerSegments } from '../../server/platform/customer-segments';
import { ApiError } from '../../server/errors';

type Row = {
  id: string;
  type: string;
  leftReason: string | null;
  rfmGroup: string | null;
  points: number;
};
type Page = { data: Row[]; total: number };
type Profile = Row & {
  events: { kind: string; actor: string; detail: Record<string, unknown> }[];
};
type Summary = {
  groups: {
    group: string;
    customers: number;
    excluded: boolean;
    leftSegment: number;
  }[];
  unscored: number;
  syncedAt: string | null;
};

const customer = (n: number) => ({
  id: `${7200000000000000000n + BigInt(n)}`,
  email: `s${n}@example.com`,
  first_name: 'Sam',
  last_name: `Segment${n}`,
});

/** The groups the fake platform reports, by customer id; customers not named get no group. */
class FakeSegments implements PlatformCustomerSegments {
  groups = new Map<string, string | null>();
  async rfmGroups(_shop: string, ids: readonly string[]) {
    return new Map(ids.filter((id) => this.groups.has(id)).map((id) => [id, this.groups.get(id) as never]));
  }
}

/** An app with a 1 point per $1 program and customers 1…count who ordered $10 each. */
async function shopWithSegments(count: number) {
  const platform = new FakeSegments();
  const t = await makeApp({ platformSegments: platform });
  expect(
    (
      await t.call('POST', '/api/kinds/earning.place_order/docs', {
        data: placeOrderData({ earnPoint: 1, rateMoney: 1 }),
      })
    ).status,
  ).toBe(201);
  for (let n = 1; n <= count; n++) expect((await t.deliverOrder(orderBody({ customer: customer(n) }, [{ price: '10.00' }]))).status).toBe(200);
  const get = async <T>(path: string) => {
    const res = await t.call('GET', path);
    expect(res.status).toBe(200);
    return (await res.json()) as T;
  };
  const sync = async () => {
    const res = await t.call('POST', '/api/customers/segments/sync');
    expect(res.status).toBe(200);
    return (
      (await res.json()) as {
        data: {
          customers: number;
          changed: number;
          left: number;
          returned: number;
          summary: Summary;
        };
      }
    ).data;
  };
  const exclude = (groups: string[]) => t.call('PUT', '/api/settings/segments', { excludedRfmGroups: groups });
  const ids = (page: Page) => page.data.map((r) => r.id).sort();
  return { ...t, platform, get, sync, exclude, ids };
}

describe('RFM groups from the platform', () => {
  it('stores each customer’s group and counts the eleven groups, unscored customers apart', async () => {
    const { platform, sync, get } = await shopWithSegments(4);
    platform.groups.set(customer(1).id, 'DORMANT').set(customer(2).id, 'DORMANT').set(customer(3).id, 'CHAMPIONS');
    const before = await get<{ data: Summary }>('/api/customers/segments');
    expect(before.data.syncedAt).toBeNull();
    expect(before.data.unscored).toBe(4);
    const done = await sync();
    expect(done).toMatchObject({
      customers: 4,
      changed: 3,
      left: 0,
      returned: 0,
    });
    expect(done.summary.groups.map((g) => g.group)).toEqual([...RFM_GROUPS]);
    expect(Object.fromEntries(done.summary.groups.filter((g) => g.customers > 0).map((g) => [g.group, g.customers]))).toEqual({ CHAMPIONS: 1, DORMANT: 2 });
    expect(done.summary.unscored).toBe(1);
    expect(done.summary.syncedAt).not.toBeNull();
    expect((await get<{ data: Row }>(`/api/customers/${customer(1).id}`)).data.rfmGroup).toBe('DORMANT');
    // A second sync with nothing new changes nothing.
    expect(await sync()).toMatchObject({ changed: 0, left: 0, returned: 0 });
  });

  it('answers 502 and moves nobody when the platform cannot be reached', async () => {
    const failing: PlatformCustomerSegments = {
      rfmGroups: () => Promise.reject(new ApiError(502, 'platform_unavailable', 'The platform could not be reached: timeout')),
    };
    const t = await makeApp({ platformSegments: failing });
    await t.deliverOrder(orderBody({ customer: customer(1) }, [{ price: '10.00' }]));
    const res = await t.call('POST', '/api/customers/segments/sync');
    expect(res.status).toBe(502);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('platform_unavailable');
    const summary = (
      (await (await t.call('GET', '/api/customers/segments')).json()) as {
        data: Summary;
      }
    ).data;
    expect(summary.syncedAt).toBeNull();
  });
});

describe('excluded segments', () => {
  it('moves the members of an excluded group out of the program, onto the Left segment tab, and they earn nothing', async () => {
    const { platform, sync, get, exclude, deliverOrder, ids } = await shopWithSegments(3);
    platform.groups.set(customer(1).id, 'DORMANT').set(customer(2).id, 'DORMANT').set(customer(3).id, 'LOYAL');
    await sync();
    expect((await exclude(['DORMANT'])).status).toBe(200);
    expect(ids(await get<Page>('/api/customers?tab=left_segment'))).toEqual([customer(1).id, customer(2).id].sort());
    expect((await get<Page>('/api/customers?tab=left')).total).toBe(0);
    expect(ids(await get<Page>('/api/customers?tab=member'))).toEqual([customer(3).id]);
    const profile = (await get<{ data: Profile }>(`/api/customers/${customer(1).id}`)).data;
    expect(profile).toMatchObject({ type: 'left', leftReason: 'segment' });
    expect(profile.events.map((e) => [e.kind, e.actor, e.detail.rfmGroup])).toEqual([['segment_left', 'admin:1', 'DORMANT']]);
    await deliverOrder(orderBody({ customer: customer(1) }, [{ price: '50.00' }]));
    await deliverOrder(orderBody({ customer: customer(3) }, [{ price: '50.00' }]));
    expect((await get<{ data: Row }>(`/api/customers/${customer(1).id}`)).data.points).toBe(10);
    expect((await get<{ data: Row }>(`/api/customers/${customer(3).id}`)).data.points).toBe(60);
    const summary = (await get<{ data: Summary }>('/api/customers/segments')).data;
    expect(summary.groups.find((g) => g.group === 'DORMANT')).toEqual({
      group: 'DORMANT',
      customers: 2,
      excluded: true,
      leftSegment: 2,
    });
  });

  it('keeps a customer the merchant reverted a member through later syncs, and lets the others back when the group is no longer excluded', async () => {
    const { platform, sync, get, exclude, call, ids } = await shopWithSegments(2);
    platform.groups.set(customer(1).id, 'AT_RISK').set(customer(2).id, 'AT_RISK');
    await sync();
    await exclude(['AT_RISK']);
    const reverted = await call('POST', `/api/customers/${customer(1).id}/rejoin`, { note: 'VIP by hand' });
    expect(reverted.status).toBe(200);
    const profile = ((await reverted.json()) as { data: Profile }).data;
    expect(profile).toMatchObject({ type: 'member', leftReason: null });
    expect(profile.events.map((e) => e.kind)).toEqual(['segment_reverted', 'segment_left']);
    expect(await sync()).toMatchObject({ left: 0, returned: 0 });
    expect(ids(await get<Page>('/api/customers?tab=left_segment'))).toEqual([customer(2).id]);
    expect((await exclude([])).status).toBe(200);
    expect((await get<Page>('/api/customers?tab=left_segment')).total).toBe(0);
    const back = (await get<{ data: Profile }>(`/api/customers/${customer(2).id}`)).data;
    expect(back.type).toBe('member');
    expect(back.events.map((e) => e.kind)).toEqual(['segment_returned', 'segment_left']);
  });

  it('moves a member whose group a later sync finds excluded, and leaves customers the merchant excluded where they are', async () => {
    const { platform, sync, get, exclude, call, ids } = await shopWithSegments(3);
    await exclude(['ALMOST_LOST']);
    expect((await call('POST', `/api/customers/${customer(3).id}/exclude`)).status).toBe(200);
    platform.groups.set(customer(1).id, 'ALMOST_LOST').set(customer(2).id, 'ACTIVE').set(customer(3).id, 'ALMOST_LOST');
    expect(await sync()).toMatchObject({ changed: 3, left: 1, returned: 0 });
    expect(ids(await get<Page>('/api/customers?tab=left_segment'))).toEqual([customer(1).id]);
    expect(ids(await get<Page>('/api/customers?tab=left'))).toEqual([customer(3).id]);
    expect((await get<{ data: Row }>(`/api/customers/${customer(3).id}`)).data.leftReason).toBe('admin');
    // Un-excluding the group brings back only who left through it.
    await exclude([]);
    expect((await get<{ data: Row }>(`/api/customers/${customer(1).id}`)).data.type).toBe('member');
    expect((await get<{ data: Row }>(`/api/customers/${customer(3).id}`)).data.type).toBe('left');
  });

  it('refuses a group that is not one of the eleven with its field path and moves nobody', async () => {
    const { platform, sync, get, exclude } = await shopWithSegments(1);
    platform.groups.set(customer(1).id, 'DORMANT');
    await sync();
    const res = await exclude(['DORMANT', 'GOLD']);
    expect(res.status).toBe(422);
    const error = ((await res.json()) as { error: { details: { path: string }[] } }).error;
    expect(error.details.map((d) => d.path)).toContain('/segments/excludedRfmGroups/1');
    expect((await get<{ data: Row }>(`/api/customers/${customer(1).id}`)).data.type).toBe('member');
    expect((await get<{ data: { excludedRfmGroups: string[] } }>('/api/settings/segments')).data.excludedRfmGroups).toEqual([]);
  });
});

describe('the local adapter', () => {
  it('files every order history in one of the eleven groups, PROSPECTS without orders', () => {
    const cases: [number, number, string][] = [
      [0, 0, 'PROSPECTS'],
      [6, 3, 'CHAMPIONS'],
      [3, 10, 'ACTIVE'],
      [1, 2, 'NEW'],
      [5, 60, 'LOYAL'],
      [3, 60, 'NEEDS_ATTENTION'],
      [1, 60, 'PROMISING'],
      [7, 120, 'AT_RISK'],
      [2, 120, 'ALMOST_LOST'],
      [9, 400, 'PREVIOUSLY_LOYAL'],
      [1, 400, 'DORMANT'],
    ];
    expect(cases.map(([orders, days]) => localRfmGroup({ orders, daysSinceLastOrder: days }))).toEqual(cases.map((c) => c[2]));
    expect(new Set(cases.map((c) => c[2])).size).toBe(RFM_GROUPS.length);
  });

  it('files customers by the orders the app stored, and answers a pinned group instead when a test sets one', async () => {
    const t = await makeApp();
    await t.deliverOrder(orderBody({ customer: customer(1), created_at: new Date().toISOString() }, [{ price: '10.00' }]));
    const local = new LocalCustomerSegments(t.db);
    const far = new LocalCustomerSegments(t.db, () => new Date(Date.now() + 200 * 86_400_000));
    expect(Object.fromEntries(await local.rfmGroups(SHOP, [customer(1).id, customer(2).id]))).toEqual({ [customer(1).id]: 'NEW', [customer(2).id]: 'PROSPECTS' });
    expect((await far.rfmGroups(SHOP, [customer(1).id])).get(customer(1).id)).toBe('DORMANT');
    local.override(SHOP, customer(1).id, 'LOYAL');
    expect((await local.rfmGroups(SHOP, [customer(1).id])).get(customer(1).id)).toBe('LOYAL');
  });
});

describe('the Admin GraphQL adapter', () => {
  const answer = (status: number, body: unknown) => () =>
    Promise.resolve(
      new Response(JSON.stringify(body), {
        status,
        headers: { 'Content-Type': 'application/json' },
      }),
    );

  it('asks for the customers by global id and reads statistics.rfmGroup, an unknown value as no group', async () => {
    let sent: { url: string; body: { variables: { ids: string[] } } } | undefined;
    const adapter = new ShopifyCustomerSegments({
      accessToken: () => Promise.resolve('shpat_x'),
      fetch: (url, init) => {
        sent = { url, body: JSON.parse(String(init?.body)) as never };
        return answer(200, {
          data: {
            nodes: [
              {
                id: 'gid://shopify/Customer/11',
                statistics: { rfmGroup: 'AT_RISK' },
              },
              {
                id: 'gid://shopify/Customer/12',
                statistics: { rfmGroup: 'SOMETHING_NEW' },
              },
              null,
            ],
          },
        })();
      },
    });
    const groups = await adapter.rfmGroups(SHOP, ['11', '12', '13']);
    expect(sent!.url).toBe(`https://${SHOP}/admin/api/2025-10/graphql.json`);
    expect(sent!.body.variables.ids).toEqual(['gid://shopify/Customer/11', 'gid://shopify/Customer/12', 'gid://shopify/Customer/13']);
    expect(Object.fromEntries(groups)).toEqual({ '11': 'AT_RISK', '12': null });
  });

  it('turns a refused token into 401 platform_unauthorized and an outage into 502', async () => {
    const refused = new ShopifyCustomerSegments({
      accessToken: () => Promise.resolve('t'),
      fetch: answer(401, {}),
    });
    await expect(refused.rfmGroups(SHOP, ['1'])).rejects.toMatchObject({
      status: 401,
      code: 'platform_unauthorized',
    });
    const down = new ShopifyCustomerSegments({
      accessToken: () => Promise.resolve('t'),
      fetch: () => Promise.reject(new Error('ECONNRESET')),
    });
    await expect(down.rfmGroups(SHOP, ['1'])).rejects.toMatchObject({
      status: 502,
      code: 'platform_unavailable',
    });
  });
});
