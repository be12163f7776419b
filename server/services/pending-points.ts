/**
 * The pending-points setting (spec 002 §4: "Pending points become available after a waiting period.
 * Disabling the pending-points feature converts all pending points to available, irreversibly").
 *
 * Turning the feature off converts every award still waiting: for each pending award the ledger
 * gets a `pending_deduct` entry (its negative, carrying the award's `available_at`, so it cancels
 * the award's pending points until that instant and nets to zero after it) and a `pending_convert`
 * entry (the same points, available now). Nothing is rewritten; the customers' stored balance does
 * not move (the pair sums to zero). Both entries take ids derived from the award, so a second
 * conversion of the same award is impossible.
 */
import { sql } from 'kysely';
import type { AppDeps } from '../deps';
import type { Db } from '../db/database';
import { ApiError, notFound } from '../errors';
import { shopSettings } from '../store/shops';
import type { FieldIssue } from '../../engine/types';

/** The longest waiting period a merchant may set, in days. */
export const MAX_PENDING_DAYS = 365;

/** The setting and what is waiting under it. `days` is the waiting period in whole days. */
export interface PendingPointsState {
  enabled: boolean;
  days: number;
  /** Points of awards not available yet, and how many customers they belong to. */
  waiting: { points: number; customers: number };
}

/** The default waiting period offered when the shop never set one (days). */
const DEFAULT_DAYS = 14;

async function waiting(db: Db, shopId: string, now: string): Promise<PendingPointsState['waiting']> {
  // Per customer first: a converted award and its deduction sum to zero and are not "waiting".
  const perCustomer = db
    .selectFrom('ledger_entries')
    .select(['customer_id', sql<number>`sum(points)`.as('points')])
    .where('shop_id', '=', shopId)
    .where('available_at', '>', now)
    .groupBy('customer_id')
    .having(sql<number>`sum(points)`, '<>', 0);
  const row = await db
    .selectFrom(perCustomer.as('w'))
    .select([sql<number>`coalesce(sum(w.points), 0)`.as('points'), sql<number>`count(*)`.as('customers')])
    .executeTakeFirstOrThrow();
  return { points: Number(row.points), customers: Number(row.customers) };
}

function settingOf(settings: Record<string, unknown>): { enabled: boolean; days: number } {
  const p = (settings.pendingPoints ?? {}) as { enabled?: unknown; days?: unknown };
  return { enabled: p.enabled === true, days: typeof p.days === 'number' && Number.isInteger(p.days) && p.days > 0 ? p.days : DEFAULT_DAYS };
}

/** The shop's pending-points setting and the points waiting now. Throws 404 for an unknown shop. */
export async function pendingPointsState(deps: AppDeps, shopId: string): Promise<PendingPointsState> {
  const row = await deps.db.selectFrom('shops').select('settings').where('id', '=', shopId).executeTakeFirst();
  if (!row) throw notFound('unknown_shop', 'The shop does not exist');
  const now = (deps.now ?? (() => new Date()))().toISOString();
  return { ...settingOf(shopSettings(row)), waiting: await waiting(deps.db, shopId, now) };
}

/** A change of the setting: `convertPending` must be true to turn it off while points wait. */
export interface PendingPointsChange {
  enabled: boolean;
  days: number;
  convertPending: boolean;
}

/**
 * Reads a `PUT /settings/pending-points` body. Throws 422 `validation_failed` naming each bad field
 * ("Failed to save settings").
 */
export function pendingPointsChangeOf(body: Record<string, unknown>): PendingPointsChange {
  const issues: FieldIssue[] = [];
  if (typeof body.enabled !== 'boolean') issues.push({ path: '/enabled', message: 'Must be true or false' });
  if (typeof body.days !== 'number' || !Number.isInteger(body.days) || body.days < 1 || body.days > MAX_PENDING_DAYS) issues.push({ path: '/days', message: `Enter a whole number of days from 1 to ${MAX_PENDING_DAYS}` });
  if (body.convertPending !== undefined && typeof body.convertPending !== 'boolean') issues.push({ path: '/convertPending', message: 'Must be true or false' });
  for (const k of Object.keys(body).filter((k) => !['enabled', 'days', 'convertPending'].includes(k))) issues.push({ path: `/${k}`, message: 'Unknown field' });
  if (issues.length > 0) throw new ApiError(422, 'validation_failed', 'Failed to save settings', issues);
  return { enabled: body.enabled as boolean, days: body.days as number, convertPending: body.convertPending === true };
}

/**
 * Saves the setting. Turning it off while points wait needs `convertPending: true` (otherwise 409
 * `confirmation_required`, with what would be converted in the message) and converts them in the
 * same transaction as the setting. Answers the new state and how many points were converted.
 */
export async function savePendingPoints(deps: AppDeps, shopId: string, change: PendingPointsChange, actor: string): Promise<PendingPointsState & { converted: number }> {
  const now = (deps.now ?? (() => new Date()))().toISOString();
  const converted = await deps.db.transaction().execute(async (tx) => {
    const row = await tx.selectFrom('shops').select('settings').where('id', '=', shopId).executeTakeFirst();
    if (!row) throw notFound('unknown_shop', 'The shop does not exist');
    const settings = shopSettings(row);
    const before = settingOf(settings);
    let points = 0;
    if (before.enabled && !change.enabled) {
      const w = await waiting(tx, shopId, now);
      if (w.points !== 0 && !change.convertPending) {
        throw new ApiError(409, 'confirmation_required', `Turning pending points off makes ${w.points} pending points of ${w.customers} customers available now. This cannot be undone.`, [{ path: '/convertPending', message: 'Confirm the conversion' }]);
      }
      points = w.points;
      await convertAll(tx, shopId, now, actor);
    }
    await tx
      .updateTable('shops')
      .set({ settings: JSON.stringify({ ...settings, pendingPoints: { enabled: change.enabled, days: change.days } }), updated_at: now })
      .where('id', '=', shopId)
      .execute();
    return points;
  });
  return { ...(await pendingPointsState(deps, shopId)), converted };
}

/** Appends the deduct/convert pair for every award of the shop still waiting at `now` (two statements). */
async function convertAll(tx: Db, shopId: string, now: string, actor: string): Promise<void> {
  const explanation = JSON.stringify({ reason: 'pending_points_disabled', actor });
  for (const [type, prefix, sign, availableAt] of [
    ['pending_deduct', 'pd:', -1, sql<string | null>`available_at`],
    ['pending_convert', 'pc:', 1, sql<string | null>`null`],
  ] as const) {
    await tx
      .insertInto('ledger_entries')
      .columns(['id', 'shop_id', 'customer_id', 'type', 'points', 'program_id', 'program_kind', 'program_version', 'source_type', 'source_id', 'reverses_id', 'explanation', 'created_at', 'available_at'])
      .expression((eb) =>
        eb
          .selectFrom('ledger_entries')
          .select([
            sql<string>`${prefix} || id`.as('id'),
            'shop_id',
            'customer_id',
            sql<string>`${type}`.as('type'),
            sql<number>`${sign} * points`.as('points'),
            'program_id',
            'program_kind',
            'program_version',
            sql<string>`${'pending_conversion'}`.as('source_type'),
            sql<string>`id`.as('source_id'),
            sql<string>`id`.as('reverses_id'),
            sql<string>`${explanation}`.as('explanation'),
            sql<string>`${now}`.as('created_at'),
            availableAt.as('available_at'),
          ])
          .where('shop_id', '=', shopId)
          .where('type', '=', 'pending_earn_point')
          .where('available_at', '>', now)
          // An award converted before (the feature turned on and off again) is not converted twice.
          .where(({ not, exists, selectFrom }) => not(exists(selectFrom('ledger_entries as done').select('done.id').where('done.id', '=', sql<string>`${prefix} || ledger_entries.id`)))),
      )
      .execute();
  }
}
