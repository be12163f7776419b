/**
 * The first-time setup flag (issue 12; spec 000 §2 "If the shop's setup is not done, a setup page
 * replaces the app"; spec 002 §2 ST7): a shop seen for the first time starts not done, the wizard's
 * steps are reported from the shop's documents, finishing or skipping marks it done, running it
 * again marks it not done, and the demo shop is seeded done.
 */
import { describe, expect, it } from 'vitest';
import { seedDemoShop } from '../../server/seed';
import { findShop } from '../../server/store/shops';
import { DEMO, makeApp, openTestDatabase, repoRegistry } from '../support/app';

type SetupBody = { data: { setupDone: boolean; setupDoneAt: string | null; steps: { earning: boolean; redeeming: boolean; widgetTheme: boolean } } };

describe('setup flag (spec 000 §2)', () => {
  it('starts not done for a new shop, reports each step, and round-trips through PUT /api/setup', async () => {
    const { call } = await makeApp();
    const shop = (await (await call('GET', '/api/shops')).json()) as { shop: { setupDone: boolean } };
    expect(shop.shop.setupDone).toBe(false);

    const first = (await (await call('GET', '/api/setup')).json()) as SetupBody;
    expect(first.data).toEqual({ setupDone: false, setupDoneAt: null, steps: { earning: false, redeeming: false, widgetTheme: false } });

    // The steps save ordinary documents; the state reads them back.
    expect((await call('POST', '/api/kinds/earning.sign_up/docs', { data: { status: true } })).status).toBe(201);
    expect((await call('POST', '/api/kinds/storefront.widget_design/docs', { data: { colors: { banner: '#123456' } } })).status).toBe(201);
    const steps = (await (await call('GET', '/api/setup')).json()) as SetupBody;
    expect(steps.data.steps).toEqual({ earning: true, redeeming: false, widgetTheme: true });

    const done = await call('PUT', '/api/setup', { setupDone: true });
    expect(done.status).toBe(200);
    const doneBody = (await done.json()) as SetupBody;
    expect(doneBody.data.setupDone).toBe(true);
    expect(doneBody.data.setupDoneAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(((await (await call('GET', '/api/shops')).json()) as { shop: { setupDone: boolean } }).shop.setupDone).toBe(true);

    const again = (await (await call('PUT', '/api/setup', { setupDone: false })).json()) as SetupBody;
    expect(again.data).toMatchObject({ setupDone: false, setupDoneAt: null });
  });

  it('refuses anything but a boolean with the field path, and writes nothing', async () => {
    const { call } = await makeApp();
    for (const body of [{ setupDone: 'yes' }, {}, { setupDone: true, extra: 1 }]) {
      const res = await call('PUT', '/api/setup', body);
      expect(res.status).toBe(422);
      const error = ((await res.json()) as { error: { details: { path: string }[] } }).error;
      expect(error.details.map((d) => d.path)).toEqual(Object.hasOwn(body, 'extra') ? ['/extra'] : ['/setupDone']);
    }
    expect(((await (await call('GET', '/api/setup')).json()) as SetupBody).data.setupDone).toBe(false);
  });

  it("creates every starter program the wizard offers from the template's defaults, switched on", async () => {
    const { call } = await makeApp();
    // The wizard's choices (ui/areas/setup/api.ts): the template's defaults are enough to save.
    for (const kind of ['earning.place_order', 'earning.sign_up', 'earning.birthday', 'redeem.amount_discount', 'redeem.percentage_discount', 'redeem.free_shipping']) {
      const res = await call('POST', `/api/kinds/${kind}/docs`, { data: { status: true } });
      expect(res.status, kind).toBe(201);
    }
    const state = ((await (await call('GET', '/api/setup')).json()) as SetupBody).data;
    expect(state.steps).toMatchObject({ earning: true, redeeming: true });
  });

  it('seeds the demo shop as set up, so the demo opens on the app itself', async () => {
    const db = await openTestDatabase();
    await seedDemoShop(db, repoRegistry(), new Date('2026-01-01T00:00:00Z'));
    expect((await findShop(db, DEMO.shopDomain))?.setup_done_at).toBe('2026-01-01T00:00:00.000Z');
  });
});
