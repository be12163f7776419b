/**
 * The Hono application: `createApp(deps)` wires routes, auth and the error handler without
 * listening, so tests call `app.request()` with no network and main.ts serves it.
 *
 * Routes: `/api/*` (session token required, except `/api/webhooks/*` which need the HMAC),
 * `/proxy/*` (the storefront API, app-proxy signature required; demo mode adds the local stand-in
 * `/apps/loyalty/*`), `/auth/config` and `/auth/demo-login`, and the built UI for every other GET (SPA fallback).
 */
import { readFileSync, existsSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { Hono } from 'hono';
import { serveStatic } from '@hono/node-server/serve-static';
import { requireSession } from './auth';
import type { AppDeps, AppEnv } from './deps';
import { ApiError, handleError } from './errors';
import { InstalledShops } from './store/shops';
import { setupRoutes } from './routes/setup';
import { authRoutes } from './routes/auth';
import { billingRoutes } from './routes/billing';
import { customerRoutes } from './routes/customers';
import { walletRoutes } from './routes/wallet';
import { couponRoutes } from './routes/coupons';
import { tierRoutes } from './routes/tiers';
import { customerImportRoutes } from './routes/customer-import';
import { customerExportRoutes, exportDownloadRoutes } from './routes/customer-export';
import { pendingPointsRoutes } from './routes/pending-points';
import { reviewRoutes } from './routes/reviews';
import { referralRoutes } from './routes/referrals';
import { eventRoutes, reviewAppWebhookRoutes } from './routes/events';
import { dashboardRoutes } from './routes/dashboard';
import { kindRoutes } from './routes/kinds';
import { programRoutes } from './routes/programs';
import { shopRoutes } from './routes/shops';
import { webhookRoutes } from './routes/webhooks';
import { webhookDeliveryRoutes } from './routes/webhook-deliveries';
import { versionRoutes } from './routes/versions';
import { simulateRoutes } from './routes/simulate';
import { openApiRoutes } from './openapi';
import { settingsRoutes } from './routes/settings';
import { devZoneRoutes } from './routes/devzone';
import { translationRoutes } from './routes/translations';
import { compressResponses, etagOf, htmlAnswer, immutableAssets } from './serving';
import { WebhookQueue } from './webhooks/queue';
import { catalogRoutes } from './routes/catalog';
import { uploadApiRoutes, uploadFileRoutes } from './routes/uploads';
import { isStorefrontUrl, proxyRoutes } from './proxy/routes';
import { localAppProxy } from './proxy/local-proxy';
import { widgetAssetRoutes } from './widget-assets';
import { DEMO } from './config';
import { securityHeaders } from './security-headers';
import { createLogger, requestLog } from './logging';
import { sql } from 'kysely';
import { API_BODY_LIMIT, IMPORT_BODY_LIMIT, limitBody, UPLOAD_BODY_LIMIT, WEBHOOK_BODY_LIMIT } from './limits';

/** Builds the app. See AppDeps for what it needs. */
export function createApp(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.onError(handleError);
  app.use('*', requestLog(deps.logger ?? createLogger('silent')));
  app.use('*', securityHeaders());
  app.use('*', compressResponses());
  // Liveness: the process answers. Readiness: the database answers too (load balancers route on it).
  app.get('/healthz', (c) => c.json({ status: 'ok' }));
  app.get('/readyz', async (c) => {
    try {
      await sql`select 1`.execute(deps.db);
      return c.json({ status: 'ready', database: 'ok' });
    } catch {
      return c.json({ status: 'not_ready', database: 'unavailable' }, 503);
    }
  });
  app.use('/api/webhooks/*', limitBody(WEBHOOK_BODY_LIMIT));
  app.use('/auth/*', limitBody(API_BODY_LIMIT));
  const uploadLimit = limitBody(UPLOAD_BODY_LIMIT, 'Image must be smaller than 10MB');
  const apiLimit = limitBody(API_BODY_LIMIT);
  const importLimit = limitBody(IMPORT_BODY_LIMIT, 'Your file is over 25MB');
  app.use('/api/*', (c, next) => (c.req.path.startsWith('/api/webhooks/') ? next() : c.req.path === '/api/uploads' ? uploadLimit(c, next) : c.req.path === '/api/customers/imports' ? importLimit(c, next) : apiLimit(c, next)));

  const queue = deps.queue ?? new WebhookQueue(deps, deps.logger ? { logger: deps.logger } : {});
  // Which shops have a row, kept by the doors that must stay cheap (server/store/shops.ts).
  const installed = new InstalledShops(deps.db);
  app.route('/api', webhookRoutes(deps, queue, installed));
  app.route('/api', reviewAppWebhookRoutes(deps)); // the review app's signed webhook (server/routes/events.ts)
  app.route('/auth', authRoutes(deps));
  app.route('/uploads', uploadFileRoutes(deps));
  app.route('/exports', exportDownloadRoutes(deps)); // signed export download links (server/routes/customer-export.ts)
  if (deps.uiDir) app.route('/', widgetAssetRoutes(dirname(deps.uiDir), deps.auth.demo));
  if (deps.auth.demo) app.route('/', localAppProxy(DEMO.shopDomain, deps.auth.apiSecret, (path, init) => app.request(path, init), deps.now));

  // The storefront API (server/proxy/routes.ts) is an app of its own, handed its requests below.
  const storefront = proxyRoutes(deps, queue, installed);
  app.route('/api', openApiRoutes(deps, app)); // public: the API's description (server/openapi.ts)
  const api = new Hono<AppEnv>();
  api.use('*', requireSession(deps.auth, (shop) => installed.ensure(shop, (deps.now ?? (() => new Date()))().toISOString())));
  api.route('/', kindRoutes(deps));
  api.route('/', programRoutes(deps));
  api.route('/', shopRoutes(deps));
  api.route('/', billingRoutes(deps));
  api.route('/', customerImportRoutes(deps)); // before customerRoutes: its /customers/:id would take /customers/imports
  api.route('/', customerExportRoutes(deps)); // before customerRoutes too (/customers/exports)
  api.route('/', customerRoutes(deps));
  api.route('/', walletRoutes(deps)); // wallet passes (server/routes/wallet.ts)
  api.route('/', couponRoutes(deps));
  api.route('/', tierRoutes(deps));
  api.route('/', pendingPointsRoutes(deps));
  api.route('/', reviewRoutes(deps));
  api.route('/', referralRoutes(deps));
  api.route('/', eventRoutes(deps));
  api.route('/', dashboardRoutes(deps));
  api.route('/', catalogRoutes(deps));
  api.route('/', uploadApiRoutes(deps));
  api.route('/', webhookDeliveryRoutes(deps, queue));
  api.route('/', versionRoutes(deps));
  api.route('/', simulateRoutes(deps));
  api.route('/', settingsRoutes(deps)); // after pendingPointsRoutes: /settings/pending-points is theirs
  api.route('/', devZoneRoutes(deps));
  api.route('/', translationRoutes(deps)); // the translation editor (server/routes/translations.ts)
  api.route('/', setupRoutes(deps)); // the first-time setup flag (server/routes/setup.ts)
  api.all('*', () => {
    throw new ApiError(404, 'not_found', 'No such API route');
  });
  app.route('/api', api);

  if (deps.uiDir && existsSync(join(deps.uiDir, 'index.html'))) {
    const indexHtml = readFileSync(join(deps.uiDir, 'index.html'), 'utf8');
    const indexEtag = etagOf(indexHtml);
    // Hashed build assets never change under their name; the page itself is revalidated (server/serving.ts).
    app.use('/assets/*', immutableAssets(), serveStatic({ root: relative(process.cwd(), deps.uiDir), precompressed: true }));
    app.get('*', (c) => htmlAnswer(c, indexHtml, indexEtag));
  }
  // Every `/proxy/*` request goes straight to the storefront API, past the admin's middleware and
  // router: a shopper's page view pays only the storefront gate (server/proxy/middleware.ts).
  // `app.request()` (tests, the demo's local app proxy) goes through `fetch` too.
  // `app.routes` (the route table: server/openapi.ts, tests) lists them too; Hono's router never reads it.
  app.routes.push(...storefront.routes);
  const admin = app.fetch;
  app.fetch = (request, env, ctx) => (isStorefrontUrl(request.url) ? storefront.fetch(request, env, ctx) : admin(request, env, ctx));
  return app;
}
