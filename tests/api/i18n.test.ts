import { describe, expect, it } from 'vitest';
import { makeApp, repoRegistry } from '../support/app';

type Props = Record<string, Record<string, unknown>>;

describe('labels in the in-app language (spec 000 §Languages)', () => {
  it('serves a kind with its labels in the language asked for, and English without one', async () => {
    const { call } = await makeApp();
    const fr = (await (await call('GET', '/api/kinds/earning.place_order?language=fr')).json()) as { data: { title: string; schema: { properties: Props } } };
    const en = (await (await call('GET', '/api/kinds/earning.place_order')).json()) as { data: { title: string; schema: { properties: Props } } };
    const catalog = repoRegistry().labels.forKind('earning.place_order', 'fr');
    expect(en.data.schema.properties.startDate!.title).toBe('Start date');
    expect(fr.data.schema.properties.startDate!.title).toBe(catalog['Start date']);
    expect(fr.data.title).toBe(catalog[en.data.title]);
    expect(fr.data.title).not.toBe(en.data.title);
  });

  it('lists kinds with translated titles, same ids and order', async () => {
    const { call } = await makeApp();
    const ja = (await (await call('GET', '/api/kinds?language=ja')).json()) as { data: { id: string; title: string }[] };
    const en = (await (await call('GET', '/api/kinds')).json()) as { data: { id: string; title: string }[] };
    expect(ja.data.map((k) => k.id)).toEqual(en.data.map((k) => k.id));
    const signUp = (list: { id: string; title: string }[]) => list.find((k) => k.id === 'earning.sign_up')?.title;
    expect(signUp(ja.data)).toBe(repoRegistry().labels.shared('ja')['Sign up']);
  });

  it('translates the condition builder catalog', async () => {
    const { call } = await makeApp();
    const de = (await (await call('GET', '/api/rules/catalog?language=de')).json()) as { data: { operators: { name: string; label: string }[]; fields: { id: string; label: string }[] } };
    const shared = repoRegistry().labels.shared('de');
    expect(de.data.operators.find((o) => o.name === 'greater_than')?.label).toBe(shared['is greater than']);
    expect(de.data.fields.find((f) => f.id === 'product.vendor')?.label).toBe(shared['Product vendor']);
  });

  it('refuses an unknown language on the query parameter', async () => {
    const { call } = await makeApp();
    const res = await call('GET', '/api/kinds/earning.sign_up?language=klingon');
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { details: unknown[] } }).error.details).toEqual([{ path: 'language', message: 'Must be one of en, en-US, fr, es, de, it, ja, id' }]);
  });
});

describe('POST /api/lp/settings (spec 000 §4 Language switch)', () => {
  it('saves the in-app language and GET /api/shops shows it', async () => {
    const { call } = await makeApp();
    const before = (await (await call('GET', '/api/shops')).json()) as { shop: { settings: Record<string, unknown> } };
    expect(before.shop.settings).toMatchObject({ primaryLanguageInApp: 'en', isShowSettingLanguage: true, shopifyPlan: 'shopify_plus' });
    const res = await call('POST', '/api/lp/settings', { primaryLanguageInApp: 'ja' });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { settings: Record<string, unknown> }).settings).toMatchObject({ primaryLanguageInApp: 'ja', shopifyPlan: 'shopify_plus' });
    const after = (await (await call('GET', '/api/shops')).json()) as { shop: { settings: Record<string, unknown> } };
    expect(after.shop.settings).toMatchObject({ primaryLanguageInApp: 'ja', shopifyPlan: 'shopify_plus' });
  });

  it('refuses an unknown language or field on its path and changes nothing', async () => {
    const { call } = await makeApp();
    const res = await call('POST', '/api/lp/settings', { primaryLanguageInApp: 'xx', plan: 'enterprise_2025' });
    expect(res.status).toBe(422);
    const body = (await res.json()) as { error: { message: string; details: { path: string; message: string }[] } };
    expect(body.error.message).toBe('Failed to save language');
    expect(body.error.details).toEqual([
      { path: '/primaryLanguageInApp', message: 'Must be one of en, en-US, fr, es, de, it, ja, id' },
      { path: '/plan', message: 'Unknown field "plan"' },
    ]);
    const shop = (await (await call('GET', '/api/shops')).json()) as { shop: { plan: string; settings: Record<string, unknown> } };
    expect(shop.shop.settings.primaryLanguageInApp).toBe('en');
  });

  it('refuses an empty body with the required message', async () => {
    const { call } = await makeApp();
    const res = await call('POST', '/api/lp/settings', {});
    expect(((await res.json()) as { error: { details: unknown[] } }).error.details).toEqual([{ path: '/primaryLanguageInApp', message: 'This field is required' }]);
  });
});
