/**
 * Serves the storefront widget (issue 13) the way a theme app extension embeds it:
 * - `GET /widget/loader.js`: the few lines a theme's `<script>` tag loads (cached 5 minutes); it
 *   adds the current bundle by its content-hashed name, passing on the tag's `data-*` settings;
 * - `GET /widget/loyalty-widget.<hash>.js`: the bundle (dist/widget/loyalty-widget.js, built by
 *   `vite build -c vite.widget.config.ts`), cached for a year as immutable — a new build has a new name;
 * - `GET /widget/preview?lang=`: the admin's live preview (issue 13): the same bundle shoppers get,
 *   with sample shop data in the page and the design sent by the admin with `postMessage`;
 * - `GET /demo-store` (demo mode only): a plain page that embeds the widget as a theme does, against
 *   the local app proxy, for trying the widget and for the browser tests.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Hono } from 'hono';
import { DEFAULT_WIDGET_DESIGN } from '../engine/widget-design';
import { loadWidgetTexts, PRIMARY_WIDGET_LANGUAGE, widgetLanguage } from './proxy/widget';

/** The built bundle and its content hash, or null when the widget was not built. */
export interface WidgetBundle {
  code: string;
  /** First 12 hex digits of the SHA-256 of the code. */
  hash: string;
}

/** Reads `dist/widget/loyalty-widget.js` under `distDir`; null when absent. */
export function readWidgetBundle(distDir: string): WidgetBundle | null {
  const file = join(distDir, 'widget', 'loyalty-widget.js');
  if (!existsSync(file)) return null;
  const code = readFileSync(file, 'utf8');
  return { code, hash: createHash('sha256').update(code).digest('hex').slice(0, 12) };
}

/**
 * The loader script for `bundle`: adds the bundle's tag (its URL resolved against the loader's own,
 * so it comes from wherever the loader came from) and copies its own `data-*` attributes onto it.
 */
export function loaderScript(bundle: WidgetBundle): string {
  const path = `/widget/loyalty-widget.${bundle.hash}.js`;
  return `(function(){var c=document.currentScript;if(!c||window.LoyaltyWidget)return;var s=document.createElement('script');s.src=new URL(${JSON.stringify(path)},c.src).href;s.async=true;for(var k in c.dataset)s.dataset[k]=c.dataset[k];document.head.appendChild(s);})();\n`;
}

/** The demo storefront page: a shop page with the widget embedded as a theme embeds it. */
export function demoStorePage(language: string): string {
  const lang = /^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8})?$/.test(language) ? language : 'en';
  return `<!doctype html>
<html lang="${lang}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Demo store</title>
<style>body{font-family:Georgia,serif;margin:0;padding:24px;background:#faf7f2;color:#333}h1{margin-top:0}.product{max-width:420px;padding:16px;border:1px solid #ddd;background:#fff}</style></head>
<body>
<h1>Demo store</h1>
<p>A plain storefront page: the rewards launcher in the corner is the loyalty widget, loaded by the theme's script tag.</p>
<div class="product"><h2>Linen shirt</h2><p>$48.00</p></div>
<script src="/widget/loader.js" data-proxy-path="/apps/loyalty" defer></script>
</body>
</html>`;
}

/** Sample shop data for the preview, with texts in `language` (an available one). */
export function previewData(texts: Record<string, Record<string, string>>, language: string): Record<string, unknown> {
  const merged = { ...(texts[PRIMARY_WIDGET_LANGUAGE] ?? {}), ...(texts[language] ?? {}) };
  const day = (n: number) => new Date(Date.UTC(2026, 0, 1 + n)).toISOString();
  return {
    config: { design: DEFAULT_WIDGET_DESIGN, texts: merged, language, languages: Object.keys(texts), shop: { currency: 'USD', pointLabel: { singular: merged['pointLabel.singular'], plural: merged['pointLabel.plural'] } }, sections: {}, earnRate: { points: 10, per: 100 } },
    shopper: { id: 'sample', firstName: 'Alex', points: 1250, pendingPoints: 40, lifetimePoints: 2100, tier: { id: 'silver', name: 'Silver' }, nextTier: { id: 'gold', name: 'Gold', method: 'points', current: 2100, target: 3000, progress: 0.7 }, referralUrl: 'https://shop.example/?ref=ALEX10' },
    earn: [
      { id: 'e1', kind: 'earning.place_order', event: 'place_order', title: 'Place an order', pointsText: '10 points for every $100 spent', action: 'order', completed: false },
      { id: 'e2', kind: 'earning.sign_up', event: 'sign_up', title: 'Create an account', pointsText: '100 points', action: 'none', completed: true },
      { id: 'e3', kind: 'earning.follow_instagram', event: 'follow_instagram', title: 'Follow us on Instagram', pointsText: '50 points', action: 'link', url: 'https://instagram.com', completed: false },
    ],
    rewards: [
      { id: 'r1', kind: 'redeem.amount_discount', rewardType: 'amount_discount', title: '$5 off your order', pointsCost: 500, affordable: true },
      { id: 'r2', kind: 'redeem.free_shipping', rewardType: 'free_shipping', title: 'Free shipping', pointsCost: 800, affordable: true },
      { id: 'r3', kind: 'redeem.percentage_discount', rewardType: 'percentage_discount', title: '15% off', pointsCost: 2000, affordable: false },
    ],
    coupons: [{ id: 'c1', code: 'LOYAL-5OFF-7Q2K', title: '$5 off your order', pointsSpent: 500, createdAt: day(10), expiresAt: day(40), status: 'available', revocable: true }],
    history: [
      { id: 'h1', type: 'earn_point', points: 120, description: 'Earned for order #1042', createdAt: day(12) },
      { id: 'h2', type: 'spend_point', points: -500, description: 'Redeemed $5 off your order', createdAt: day(10) },
      { id: 'h3', type: 'earn_point', points: 100, description: 'Created an account', createdAt: day(2) },
    ],
    referral: { url: 'https://shop.example/?ref=ALEX10', code: 'ALEX10' },
  };
}

/** The preview page: sample data as a JSON data block (not a script, so the page's CSP holds). */
export function previewPage(language: string, data: Record<string, unknown>): string {
  const json = JSON.stringify(data).replace(/</g, '\\u003c');
  return `<!doctype html>
<html lang="${language}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Widget preview</title>
<style>html,body{margin:0;height:100%;background:repeating-linear-gradient(45deg,#f4f4f4 0 12px,#fafafa 12px 24px)}</style></head>
<body>
<script type="application/json" id="loyalty-preview-data">${json}</script>
<script src="/widget/loader.js" data-preview data-language="${language}" defer></script>
</body>
</html>`;
}

/** Routes for the widget's files under `distDir` (the build output folder); `demo` adds /demo-store. */
export function widgetAssetRoutes(distDir: string, demo: boolean): Hono {
  const app = new Hono();
  let bundle = readWidgetBundle(distDir);
  /** The bundle as built now (re-read when the file changed since, e.g. during development). */
  const current = () => {
    const latest = readWidgetBundle(distDir);
    if (latest && latest.hash !== bundle?.hash) bundle = latest;
    return bundle;
  };
  app.get('/widget/loader.js', (c) => {
    const b = current();
    if (!b) return c.text('// The storefront widget is not built (vite build -c vite.widget.config.ts).', 404);
    c.header('Content-Type', 'text/javascript; charset=utf-8');
    c.header('Cache-Control', 'public, max-age=300');
    return c.body(loaderScript(b));
  });
  app.get('/widget/:file{loyalty-widget\\.[0-9a-f]{12}\\.js}', (c) => {
    const b = current();
    if (!b || c.req.param('file') !== `loyalty-widget.${b.hash}.js`) return c.text('Not found', 404);
    c.header('Content-Type', 'text/javascript; charset=utf-8');
    c.header('Cache-Control', 'public, max-age=31536000, immutable');
    c.header('Access-Control-Allow-Origin', '*');
    return c.body(b.code);
  });
  const texts = loadWidgetTexts();
  app.get('/widget/preview', (c) => {
    const language = widgetLanguage(c.req.query('lang'), Object.keys(texts));
    return c.html(previewPage(language, previewData(texts, language)));
  });
  if (demo) app.get('/demo-store', (c) => c.html(demoStorePage(c.req.query('lang') ?? 'en')));
  return app;
}
