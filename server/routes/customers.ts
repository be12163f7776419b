/**
 * Customers, their points balance and their ledger (activity), plus the stored explanation of an
 * ingested order ("why did this order earn what it earned").
 */
import { Hono } from 'hono';
import type { AppDeps, AppEnv } from '../deps';
import { notFound } from '../errors';
import { findCustomer, listEntries } from '../store/ledger';
import { findOrderEvaluation } from '../services/orders';

export function customerRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get('/customers/:id', async (c) => {
    const customer = await findCustomer(deps.db, c.get('shopId'), c.req.param('id'), (deps.now ?? (() => new Date()))());
    if (!customer) throw notFound('not_found', 'This customer does not exist');
    return c.json({ data: customer });
  });
  app.get('/customers/:id/activity', async (c) => {
    const customer = await findCustomer(deps.db, c.get('shopId'), c.req.param('id'), (deps.now ?? (() => new Date()))());
    if (!customer) throw notFound('not_found', 'This customer does not exist');
    const entries = await listEntries(deps.db, c.get('shopId'), customer.id);
    return c.json({ data: entries, count: entries.length });
  });
  app.get('/orders/:id/evaluation', async (c) => {
    const evaluation = await findOrderEvaluation(deps, c.get('shopId'), c.req.param('id'));
    if (!evaluation) throw notFound('not_found', 'No order with this id has been received');
    return c.json({ data: evaluation });
  });
  return app;
}
