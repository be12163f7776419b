/**
 * The generic route table over kinds (DESIGN.md "Server"): one set of handlers serves every kind
 * found under schemas/. An unknown kind is a 404 from one helper.
 */
import { Hono } from 'hono';
import type { AppDeps, AppEnv } from '../deps';
import { notFound } from '../errors';
import { languageParam, readJsonBody } from './body';
import { createDocument, kindOrThrow, publicDocument, removeDocument, replaceDocument } from '../services/documents';
import { findDocument, listDocuments } from '../store/documents';
import { findShop } from '../store/shops';
import { shopContext } from '../services/shop-context';
import { checkGate, checkGates, GATED_FEATURES } from '../../engine/gates';

export function kindRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  app.get('/kinds', async (c) => {
    const shop = await findShop(deps.db, c.get('shopId'));
    const gateShop = shop ? shopContext(shop).gate : { plan: 'free' };
    const data = await Promise.all(
      deps.registry.summaries(languageParam(c)).map(async (k) => ({ ...k, gate: k.feature ? await checkGate(k.feature, gateShop) : null })),
    );
    return c.json({ data });
  });

  app.get('/gates', async (c) => {
    const shop = await findShop(deps.db, c.get('shopId'));
    const answers = await checkGates(GATED_FEATURES, shop ? shopContext(shop).gate : { plan: 'free' });
    return c.json({ data: answers });
  });

  app.get('/kinds/:kind', (c) => {
    const kind = kindOrThrow(deps, c.req.param('kind'));
    return c.json({ data: deps.registry.localized(kind.id, languageParam(c)) });
  });

  app.get('/kinds/:kind/docs', async (c) => {
    const kind = kindOrThrow(deps, c.req.param('kind'));
    const docs = await listDocuments(deps.db, c.get('shopId'), [kind.id]);
    return c.json({ data: docs.map((doc) => publicDocument(deps, doc)), count: docs.length });
  });

  app.post('/kinds/:kind/docs', async (c) => {
    const kind = kindOrThrow(deps, c.req.param('kind'));
    const body = await readJsonBody(c);
    const doc = await createDocument(deps, c.get('shopId'), kind, body.data, c.get('userId'));
    return c.json({ data: publicDocument(deps, doc) }, 201);
  });

  app.get('/kinds/:kind/docs/:id', async (c) => {
    const kind = kindOrThrow(deps, c.req.param('kind'));
    const doc = await findDocument(deps.db, c.get('shopId'), c.req.param('id'));
    if (!doc || doc.kind !== kind.id) throw notFound('not_found', 'This document does not exist or was deleted');
    return c.json({ data: publicDocument(deps, doc) });
  });

  app.put('/kinds/:kind/docs/:id', async (c) => {
    const kind = kindOrThrow(deps, c.req.param('kind'));
    const body = await readJsonBody(c);
    const doc = await replaceDocument(deps, c.get('shopId'), kind, c.req.param('id'), body.version, body.data, c.get('userId'));
    return c.json({ data: publicDocument(deps, doc) });
  });

  app.delete('/kinds/:kind/docs/:id', async (c) => {
    const kind = kindOrThrow(deps, c.req.param('kind'));
    await removeDocument(deps, c.get('shopId'), kind, c.req.param('id'));
    return c.json({ success: true, message: 'Deleted' });
  });

  return app;
}
