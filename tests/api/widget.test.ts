/**
 * The storefront widget's configuration (issue 13): `GET /proxy/widget` answers the design with
 * defaults, texts in the shopper's language with the primary language filling every gap (never a
 * key), and the widget's design rules (engine/widget-design.ts) clamp what was saved and keep
 * advanced CSS inside the widget.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_WIDGET_DESIGN, resolveDesign, sanitizeWidgetCss, WIDGET_BLOCKS } from '../../engine/widget-design';
import { loadWidgetTexts, widgetLanguage } from '../../server/proxy/widget';
import { insertDocument } from '../../server/store/documents';
import { makeApp, SHOP } from '../support/app';

interface WidgetAnswer {
  data: { design: typeof DEFAULT_WIDGET_DESIGN; texts: Record<string, string>; language: string; languages: string[]; shop: { currency: string; pointLabel: { singular: string; plural: string } } };
}

describe('GET /proxy/widget', () => {
  it('answers a guest the default design and English texts', async () => {
    const t = await makeApp();
    const res = await t.proxy('GET', '/widget', null);
    expect(res.status).toBe(200);
    const { data } = (await res.json()) as WidgetAnswer;
    expect(data.design).toEqual(DEFAULT_WIDGET_DESIGN);
    expect(data.language).toBe('en');
    expect(data.texts['welcome.guestTitle']).toBe('Join our rewards program');
    expect(data.shop).toEqual({ currency: 'USD', pointLabel: { singular: 'point', plural: 'points' } });
  });

  it('answers French for fr-CA and fills nothing with a key', async () => {
    const t = await makeApp();
    const { data } = (await (await t.proxy('GET', '/widget?language=fr-CA', '42')).json()) as WidgetAnswer;
    expect(data.language).toBe('fr');
    expect(data.texts['welcome.guestTitle']).toBe('Rejoignez notre programme de fidélité');
    const english = loadWidgetTexts().en!;
    expect(Object.keys(data.texts).sort()).toEqual(Object.keys(english).sort());
    for (const [key, text] of Object.entries(data.texts)) expect(text, key).not.toBe(key);
  });

  it('takes the shop point label from its settings', async () => {
    const t = await makeApp();
    await insertDocument(t.db, SHOP, 'settings.shop', 1, { general: { pointLabel: { singular: 'star', plural: 'stars', position: 'after' } } }, new Date().toISOString());
    const { data } = (await (await t.proxy('GET', '/widget', null)).json()) as WidgetAnswer;
    expect(data.shop.pointLabel).toEqual({ singular: 'star', plural: 'stars' });
  });

  it('refuses an unsigned call', async () => {
    const t = await makeApp();
    const res = await t.app.request('/proxy/widget?shop=test-shop.myshopify.com');
    expect(res.status).toBe(401);
  });
});

describe('widget languages', () => {
  it('picks the exact language, then the base language, then English', () => {
    const available = ['en', 'fr', 'pt-BR'];
    expect(widgetLanguage('pt-BR', available)).toBe('pt-BR');
    expect(widgetLanguage('fr-BE', available)).toBe('fr');
    expect(widgetLanguage('ja', available)).toBe('en');
    expect(widgetLanguage(undefined, available)).toBe('en');
  });

  it('ships every language with the same keys and placeholders as English', () => {
    const all = loadWidgetTexts();
    const english = all.en!;
    const placeholders = (s: string) => [...s.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();
    for (const [language, texts] of Object.entries(all)) {
      expect(Object.keys(texts).sort(), language).toEqual(Object.keys(english).sort());
      for (const key of Object.keys(english)) expect(placeholders(texts[key]!), `${language} ${key}`).toEqual(placeholders(english[key]!));
    }
  });
});

describe('resolveDesign', () => {
  it('keeps the saved block order, drops unknown blocks and appends the missing ones hidden', () => {
    const design = resolveDesign({ blocks: [{ id: 'redeem', visible: true, items: 3 }, { id: 'bogus' }, { id: 'welcome', visible: false }] });
    expect(design.blocks.map((b) => b.id)).toEqual(['redeem', 'welcome', ...WIDGET_BLOCKS.filter((b) => b !== 'redeem' && b !== 'welcome')]);
    expect(design.blocks[0]).toEqual({ id: 'redeem', visible: true, items: 3 });
    expect(design.blocks[1]!.visible).toBe(false);
    expect(design.blocks.slice(2).every((b) => !b.visible)).toBe(true);
  });

  it('replaces invalid colors and clamps the corner radius', () => {
    const design = resolveDesign({ colors: { button: '#FF0000', banner: 'red' }, borderRadius: 99, corners: 'blob' });
    expect(design.colors.button).toBe('#ff0000');
    expect(design.colors.banner).toBe(DEFAULT_WIDGET_DESIGN.colors.banner);
    expect(design.borderRadius).toBe(32);
    expect(design.corners).toBe('rounded');
  });

  it('accepts only https or same-site redirect links', () => {
    expect(resolveDesign({ redirectUrl: 'https://shop.example/join' }).redirectUrl).toBe('https://shop.example/join');
    expect(resolveDesign({ redirectUrl: '/pages/rewards' }).redirectUrl).toBe('/pages/rewards');
    expect(resolveDesign({ redirectUrl: 'javascript:alert(1)' }).redirectUrl).toBe('');
  });
});

describe('sanitizeWidgetCss', () => {
  it('removes imports, URLs, bindings and style breakouts but keeps ordinary rules', () => {
    const css = sanitizeWidgetCss('@import url(https://evil.example/x.css); .btn { color: red; background: url(javascript:alert(1)); } </style><script>x</script> :host-context(body) .panel { -moz-binding: url(x); }');
    expect(css).toContain('.btn { color: red; background: none; }');
    expect(css).not.toMatch(/@import|url\(|<|-moz-binding|:host-context/i);
  });
});
