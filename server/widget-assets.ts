/**
 * Serves the storefront widget (issue 13) the way a theme app extension embeds it:
 * - `GET /widget/loader.js`: the few lines a theme's `<script>` tag loads (cached 5 minutes); it
 *   adds the current bundle by its content-hashed name, passing on the tag's `data-*` settings;
 * - `GET /widget/loyalty-widget.<hash>.js`: the bundle (dist/widget/loyalty-widget.js, built by
 *   `vite build -c vite.widget.config.ts`), cached for a year as immutable — a new build has a new name;
 * - `GET /demo-store` (demo mode only): a plain page that embeds the widget as a theme does, against
 *   the local app proxy, for trying the widget and for the browser tests.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Hono } from 'hono';

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
  if (demo) app.get('/demo-store', (c) => c.html(demoStorePage(c.req.query('lang') ?? 'en')));
  return app;
}
