/**
 * VIP tiers and point expiry (issue 10; spec 002 §4, §8, §9):
 * - `GET /tiers/status`: launch state and the programs using tiers;
 * - `POST /tiers/launch`, `/tiers/relaunch` (`{ changeNotes?, grantEntryRewards? }`), `/tiers/deactivate`
 *   (409 `tiers_in_use` "Cannot deactivate VIP Tier while programs use it", one detail per program);
 * - `GET /customers/:id/tier` (the tier card), `POST /customers/:id/tier` (`{ tierId, note?,
 *   grantEntryReward? }`: assign an exclusive tier), `DELETE /customers/:id/tier` (unassign);
 * - `GET`, `PUT /points/expiry-settings` (the shop's `pointExpiry` rule).
 */
import { Hono, type Context } from 'hono';
import type { AppDeps, AppEnv } from '../deps';
import { ApiError } from '../errors';
import { expiryRuleOf, parseExpiryRule } from '../services/expiry';
import { assignExclusiveTier, customerTier, deactivateTiers, launchTiers, tierProgramStatus, unassignExclusiveTier, type LaunchInput } from '../services/tiers';
import { findShop, shopSettings, updateShopSettings } from '../store/shops';
import { readJsonBody } from './body';

const actorOf = (c: Context<AppEnv>): string => `admin:${c.get('userId') || 'unknown'}`;
const NOTE_MAX = 500;

/** `{ changeNotes?, grantEntryRewards? }` of a (re)launch. Throws 422 with the field paths. */
function launchInput(body: Record<string, unknown>): LaunchInput {
  const issues: { path: string; message: string }[] = [];
  const notes = body.changeNotes ?? '';
  if (typeof notes !== 'string' || notes.length > NOTE_MAX) issues.push({ path: '/changeNotes', message: `Must be text of at most ${NOTE_MAX} characters` });
  const grant = body.grantEntryRewards ?? false;
  if (typeof grant !== 'boolean') issues.push({ path: '/grantEntryRewards', message: 'Must be true or false' });
  for (const key of Object.keys(body)) if (key !== 'changeNotes' && key !== 'grantEntryRewards') issues.push({ path: `/${key}`, message: `Unknown field "${key}"` });
  if (issues.length > 0) throw new ApiError(422, 'validation_failed', 'Failed to publish', issues);
  return { changeNotes: notes as string, grantEntryRewards: grant as boolean };
}

/** The body of a request that may be empty (`{}` then). */
async function optionalBody(c: Context): Promise<Record<string, unknown>> {
  return (await c.req.text()).trim() === '' ? {} : readJsonBody(c);
}

export function tierRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const now = (): Date => (deps.now ?? (() => new Date()))();

  app.get('/tiers/status', async (c) => c.json({ data: await tierProgramStatus(deps.db, c.get('shopId')) }));
  app.post('/tiers/launch', async (c) => c.json({ data: await launchTiers(deps.db, c.get('shopId'), 'launch', launchInput(await optionalBody(c)), actorOf(c), now()) }));
  app.post('/tiers/relaunch', async (c) => c.json({ data: await launchTiers(deps.db, c.get('shopId'), 'relaunch', launchInput(await optionalBody(c)), actorOf(c), now()) }));
  app.post('/tiers/deactivate', async (c) => c.json({ data: await deactivateTiers(deps.db, c.get('shopId'), actorOf(c), now()) }));

  app.get('/customers/:id/tier', async (c) => c.json({ data: await customerTier(deps.db, c.get('shopId'), c.req.param('id'), now()) }));
  app.post('/customers/:id/tier', async (c) => {
    const body = await readJsonBody(c);
    const issues: { path: string; message: string }[] = [];
    if (typeof body.tierId !== 'string' || body.tierId === '') issues.push({ path: '/tierId', message: 'This field is required' });
    const note = body.note ?? '';
    if (typeof note !== 'string' || note.length > NOTE_MAX) issues.push({ path: '/note', message: `Must be text of at most ${NOTE_MAX} characters` });
    const grant = body.grantEntryReward ?? false;
    if (typeof grant !== 'boolean') issues.push({ path: '/grantEntryReward', message: 'Must be true or false' });
    if (issues.length > 0) throw new ApiError(422, 'validation_failed', 'Failed to update customer', issues);
    const shopId = c.get('shopId');
    await assignExclusiveTier(deps.db, shopId, c.req.param('id'), body.tierId as string, { note: note as string, grantEntryReward: grant as boolean }, actorOf(c), now());
    return c.json({ data: await customerTier(deps.db, shopId, c.req.param('id'), now()) });
  });
  app.delete('/customers/:id/tier', async (c) => {
    const shopId = c.get('shopId');
    await unassignExclusiveTier(deps.db, shopId, c.req.param('id'), actorOf(c), now());
    return c.json({ data: await customerTier(deps.db, shopId, c.req.param('id'), now()) });
  });

  app.get('/points/expiry-settings', async (c) => {
    const shop = await findShop(deps.db, c.get('shopId'));
    return c.json({ data: expiryRuleOf(shop ? shopSettings(shop) : {}) });
  });
  app.put('/points/expiry-settings', async (c) => {
    const rule = parseExpiryRule(await readJsonBody(c));
    const settings = await updateShopSettings(deps.db, c.get('shopId'), { pointExpiry: rule }, now().toISOString());
    return c.json({ data: expiryRuleOf(settings) });
  });
  return app;
}
