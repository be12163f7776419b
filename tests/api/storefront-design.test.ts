/**
 * The storefront design and branding (issue 13; spec 000 §2, spec 001 §2, §6): advanced CSS is a
 * field-level plan gate (Essential and above; a saved value may stay, clearing is allowed), the
 * widget's page restriction and instant popup rules, and the sections `GET /proxy/widget` serves.
 */
import { describe, expect, it } from 'vitest';
import { calculatorPoints, DEFAULT_WIDGET_DESIGN, launcherHiddenOn, pathList, pathMatches, popupOn, resolveDesign, restrictedOn } from '../../engine/widget-design';
import { insertDocument } from '../../server/store/documents';
import { makeApp, SHOP } from '../support/app';

const DESIGN = 'storefront.widget_design';

describe('advanced CSS plan gate (spec 001 §6: paid plan, labelled Essential)', () => {
  it('refuses a free shop advanced CSS with 403 plan_gate at /advancedCss naming Essential, and saves nothing', async () => {
    const t = await makeApp({ shop: { plan: 'free' } });
    const res = await t.call('POST', `/api/kinds/${DESIGN}/docs`, { data: { advancedCss: '.launcher { color: red }' } });
    expect(res.status).toBe(403);
    const body = (await res.json()) as { error: { code: string; message: string; details: { path: string; message: string }[] } };
    expect(body.error.code).toBe('plan_gate');
    expect(body.error.message).toMatch(/^Advanced CSS is available on the Essential plan\./);
    expect(body.error.details[0]!.path).toBe('/advancedCss');
    const list = (await (await t.call('GET', `/api/kinds/${DESIGN}/docs`)).json()) as { data: unknown[] };
    expect(list.data).toHaveLength(0);
  });

  it('lets a free shop save the rest of the design, with blank CSS', async () => {
    const t = await makeApp({ shop: { plan: 'free' } });
    const res = await t.call('POST', `/api/kinds/${DESIGN}/docs`, { data: { borderRadius: 4, advancedCss: '   ' } });
    expect(res.status).toBe(201);
  });

  it('lets a paid shop save advanced CSS', async () => {
    const t = await makeApp({ shop: { plan: 'pro_3_2025' } });
    const res = await t.call('POST', `/api/kinds/${DESIGN}/docs`, { data: { advancedCss: '.launcher { color: red }' } });
    expect(res.status).toBe(201);
  });

  it('keeps CSS saved before a downgrade through other edits, refuses changing it, allows clearing it', async () => {
    const t = await makeApp({ shop: { plan: 'free' } });
    const doc = await insertDocument(t.db, SHOP, DESIGN, 1, { ...DEFAULT_WIDGET_DESIGN, advancedCss: '.a { color: red }' }, new Date().toISOString());
    const put = (version: number, data: Record<string, unknown>) => t.call('PUT', `/api/kinds/${DESIGN}/docs/${doc.id}`, { version, data: { ...DEFAULT_WIDGET_DESIGN, ...data } });
    const same = await put(1, { advancedCss: '.a { color: red }', borderRadius: 3 });
    expect(same.status).toBe(200);
    const changed = await put(2, { advancedCss: '.a { color: blue }' });
    expect(changed.status).toBe(403);
    const cleared = await put(2, { advancedCss: '' });
    expect(cleared.status).toBe(200);
  });
});

describe('page restriction and instant popup (spec 001 §2)', () => {
  it('reads pathnames one per line: trims, drops empty lines, keeps only the path of a full URL', () => {
    expect(pathList(' /pages/rewards/ \n\n https://shop.example/cart?x=1\nproducts/*\r\n')).toEqual(['/pages/rewards', '/cart', '/products/*']);
  });

  it('matches a path exactly (case and trailing slash aside), with * as a wildcard and a locale prefix ignored', () => {
    expect(pathMatches('/cart', '/cart/')).toBe(true);
    expect(pathMatches('/cart', '/Cart')).toBe(true);
    expect(pathMatches('/cart', '/cart/change')).toBe(false);
    expect(pathMatches('/products/*', '/products/linen-shirt')).toBe(true);
    expect(pathMatches('/products/*', '/collections/all')).toBe(false);
    expect(pathMatches('/pages/rewards', '/fr/pages/rewards')).toBe(true);
    expect(pathMatches('/a.b', '/aXb')).toBe(false);
  });

  it('hides the widget on the listed pages, or everywhere else with show_only_on', () => {
    const hide = resolveDesign({ pageRestriction: { mode: 'hide_on', paths: '/cart\n/checkouts/*' } });
    expect(restrictedOn(hide, '/cart')).toBe(true);
    expect(restrictedOn(hide, '/checkouts/abc')).toBe(true);
    expect(restrictedOn(hide, '/')).toBe(false);
    const only = resolveDesign({ pageRestriction: { mode: 'show_only_on', paths: '/pages/rewards' } });
    expect(restrictedOn(only, '/pages/rewards')).toBe(false);
    expect(restrictedOn(only, '/')).toBe(true);
    expect(restrictedOn(resolveDesign(null), '/cart')).toBe(false);
  });

  it('opens the popup only when on, on the chosen devices and pages', () => {
    expect(popupOn(resolveDesign(null), '/', false)).toBe(false);
    const home = resolveDesign({ instantPopup: { enabled: true, desktop: true, mobile: false, pages: 'home' } });
    expect(popupOn(home, '/', false)).toBe(true);
    expect(popupOn(home, '/', true)).toBe(false);
    expect(popupOn(home, '/products/x', false)).toBe(false);
    const custom = resolveDesign({ instantPopup: { enabled: true, pages: 'custom', customPaths: '/pages/rewards\n/products/*' } });
    expect(popupOn(custom, '/pages/rewards', true)).toBe(true);
    expect(popupOn(custom, '/products/shirt', false)).toBe(true);
    expect(popupOn(custom, '/cart', false)).toBe(false);
  });

  it('hides the launcher on every device or on phones only', () => {
    const all = resolveDesign({ launcher: { hidden: true } });
    expect(launcherHiddenOn(all, false)).toBe(true);
    const mobile = resolveDesign({ launcher: { hidden: true, hiddenOn: 'mobile_only' } });
    expect(launcherHiddenOn(mobile, true)).toBe(true);
    expect(launcherHiddenOn(mobile, false)).toBe(false);
    expect(launcherHiddenOn(resolveDesign(null), true)).toBe(false);
  });

  it('fills membership card, popup and restriction defaults and drops bad colors', () => {
    const d = resolveDesign({ membershipCard: { enabled: true, background: 'navy' }, instantPopup: { pages: 'nowhere' } });
    expect(d.membershipCard).toEqual({ enabled: true, background: '#202223', text: '#ffffff', showTier: true });
    expect(d.instantPopup.pages).toBe('all');
    expect(d.pageRestriction).toEqual({ mode: 'none', paths: '' });
  });

  it('computes calculator points rounded down at the place-order rate', () => {
    expect(calculatorPoints(250, { points: 10, per: 100 })).toBe(20);
    expect(calculatorPoints(99.99, { points: 10, per: 100 })).toBe(0);
    expect(calculatorPoints(-5, { points: 10, per: 100 })).toBe(0);
    expect(calculatorPoints(Number.NaN, { points: 10, per: 100 })).toBe(0);
  });
});

describe('GET /proxy/widget storefront sections', () => {
  it('serves the sections switched on by kind name and leaves out those switched off', async () => {
    const t = await makeApp();
    const faqs = await t.call('POST', '/api/kinds/storefront.faqs/docs', { data: { questions: [{ question: 'Do points expire?', answer: 'After a year.' }] } });
    expect(faqs.status).toBe(201);
    const calc = await t.call('POST', '/api/kinds/storefront.calculator/docs', { data: { enabled: false } });
    expect(calc.status).toBe(201);
    const { data } = (await (await t.proxy('GET', '/widget', null)).json()) as { data: { sections: Record<string, { questions?: unknown[] }> } };
    expect(data.sections.faqs?.questions).toEqual([{ question: 'Do points expire?', answer: 'After a year.' }]);
    expect(data.sections.calculator).toBeUndefined();
    expect(data.sections.widget_design).toBeUndefined();
  });

  it('serves the active place-order rate for the calculator, null without one', async () => {
    const t = await makeApp();
    const before = (await (await t.proxy('GET', '/widget', null)).json()) as { data: { earnRate: unknown } };
    expect(before.data.earnRate).toBeNull();
    const res = await t.call('POST', '/api/kinds/earning.place_order/docs', { data: { title: 'Orders', status: true, earnPoint: 5, rateMoney: 10 } });
    expect(res.status).toBe(201);
    const after = (await (await t.proxy('GET', '/widget', null)).json()) as { data: { earnRate: unknown } };
    expect(after.data.earnRate).toEqual({ points: 5, per: 10 });
  });
});
