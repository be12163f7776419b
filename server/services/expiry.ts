/**
 * Point expiry (spec 002 §1 "point expiration", §9 reminders 7-day and 3-day) and the daily job
 * that runs it, with VIP tier demotion, for each store at its local day boundary.
 *
 * The rule lives in the shop settings (`pointExpiry`, defaults in server/store/shops.ts: no
 * template holds it). Each run of a store-local date appends, per customer with points due, one
 * `minus_point` entry with `source_type: 'expiry'` whose explanation lists the credits it consumed
 * (FIFO, engine/expiry.ts), records the reminders due in `point_expiry_reminders` (sending comes
 * later), and marks the customer's day done in `point_expiry_runs` in the same transaction, so a
 * re-run (or a second instance) of the same day changes nothing.
 *
 * Bounded work: a run looks only at customers with a credit earned in the window that can fall
 * due since the store's previous run (the ledger by (shop, created_at) index), then at each such
 * customer's own entries. The first run of a store has no previous run and looks at every older
 * credit once.
 */
import type { Db } from '../db/database';
import type { Logger } from '../logging';
import { startPeriodic } from '../jobs/scheduler';
import { ApiError } from '../errors';
import { dueReminders, expiringOn, latestEarnedOn, type Credit, type Debit, type ExpiryRule } from '../../engine/expiry';
import { localDate, startOfLocalDay } from '../../engine/store-time';
import { addToLocalDate, type InactivityUnit } from '../../engine/tiers';
import { appendEntries } from '../store/ledger';
import { shopSettings } from '../store/shops';
import { launchedShops, runTierDemotions } from './tiers';

/** The ledger `source_type` of an expiry entry. */
export const EXPIRY = 'expiry';

const UNITS: readonly InactivityUnit[] = ['day', 'week', 'month', 'year'];

/** The shop's expiry rule from its settings (defaults filled in; a malformed value falls back to the default). */
export function expiryRuleOf(settings: Record<string, unknown>): ExpiryRule {
  const raw = (settings.pointExpiry ?? {}) as Record<string, unknown>;
  const afterValue = typeof raw.afterValue === 'number' && Number.isInteger(raw.afterValue) && raw.afterValue > 0 ? raw.afterValue : 12;
  const afterUnit = typeof raw.afterUnit === 'string' && (UNITS as readonly string[]).includes(raw.afterUnit) ? (raw.afterUnit as InactivityUnit) : 'month';
  const reminders = Array.isArray(raw.reminderDaysBefore) ? raw.reminderDaysBefore.filter((d): d is number => typeof d === 'number' && Number.isInteger(d) && d > 0 && d <= 366) : [7, 3];
  return { enabled: raw.enabled === true, afterValue, afterUnit, reminderDaysBefore: reminders };
}

/**
 * Checks an expiry rule sent by the admin (`PUT /api/points/expiry-settings`).
 * @throws ApiError 422 `validation_failed` with one detail per bad field (`/afterValue`, …)
 */
export function parseExpiryRule(body: Record<string, unknown>): ExpiryRule {
  const issues: { path: string; message: string }[] = [];
  for (const key of Object.keys(body)) if (!['enabled', 'afterValue', 'afterUnit', 'reminderDaysBefore'].includes(key)) issues.push({ path: `/${key}`, message: `Unknown field "${key}"` });
  if (typeof body.enabled !== 'boolean') issues.push({ path: '/enabled', message: 'This field is required' });
  if (typeof body.afterValue !== 'number' || !Number.isInteger(body.afterValue) || body.afterValue < 1 || body.afterValue > 1000) issues.push({ path: '/afterValue', message: 'Must be between 1 and 1000' });
  if (typeof body.afterUnit !== 'string' || !(UNITS as readonly string[]).includes(body.afterUnit)) issues.push({ path: '/afterUnit', message: `Must be one of ${UNITS.join(', ')}` });
  const reminders = body.reminderDaysBefore ?? [];
  if (!Array.isArray(reminders) || reminders.length > 5 || reminders.some((d) => typeof d !== 'number' || !Number.isInteger(d) || d < 1 || d > 60)) issues.push({ path: '/reminderDaysBefore', message: 'Up to 5 whole numbers of days between 1 and 60' });
  if (issues.length > 0) throw new ApiError(422, 'validation_failed', 'Failed to save settings', issues);
  return { enabled: body.enabled as boolean, afterValue: body.afterValue as number, afterUnit: body.afterUnit as InactivityUnit, reminderDaysBefore: reminders as number[] };
}

/** What one store's daily run did. */
export interface ExpiryRunResult {
  shopId: string;
  /** The store-local date run. */
  runDate: string;
  /** False when the day had already been run (nothing done). */
  ran: boolean;
  customersChecked: number;
  customersExpired: number;
  pointsExpired: number;
  remindersRecorded: number;
  demoted: number;
}

type LedgerRow = { id: string; points: number; created_at: string; reverses_id: string | null; source_type: string; explanation: string };

/** A customer's entries as the expiry engine reads them. */
function creditsAndDebits(rows: readonly LedgerRow[]): { credits: Credit[]; debits: Debit[] } {
  const credits: Credit[] = [];
  const debits: Debit[] = [];
  for (const r of rows) {
    if (r.points > 0) credits.push({ id: r.id, points: r.points, at: r.created_at });
    else if (r.points < 0) {
      let allocations: { creditId: string; points: number }[] | undefined;
      if (r.source_type === EXPIRY) {
        const e = JSON.parse(r.explanation) as { consumed?: { creditId: string; points: number }[] };
        allocations = e.consumed;
      }
      debits.push({ id: r.id, points: -r.points, at: r.created_at, reversesId: r.reverses_id, ...(allocations ? { allocations } : {}) });
    }
  }
  return { credits, debits };
}

/**
 * Runs point expiry for one customer on `runDate` inside `tx`: skips a customer whose day is done;
 * appends the expiry entry when points are due; records due reminders; marks the day done.
 * @returns points expired and reminders recorded
 */
async function expireCustomer(tx: Db, shopId: string, customerId: string, rule: ExpiryRule, timeZone: string, runDate: string, now: Date): Promise<{ points: number; reminders: number } | null> {
  const done = await tx.selectFrom('point_expiry_runs').select('run_date').where('shop_id', '=', shopId).where('customer_id', '=', customerId).where('run_date', '=', runDate).executeTakeFirst();
  if (done) return null;
  const rows = await tx
    .selectFrom('ledger_entries')
    .select(['id', 'points', 'created_at', 'reverses_id', 'source_type', 'explanation'])
    .where('shop_id', '=', shopId)
    .where('customer_id', '=', customerId)
    .where('created_at', '<=', now.toISOString())
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  const { credits, debits } = creditsAndDebits(rows);
  const decision = expiringOn(credits, debits, rule, timeZone, runDate);
  const iso = now.toISOString();
  if (decision.points > 0) {
    await appendEntries(tx, [
      {
        id: crypto.randomUUID(),
        shop_id: shopId,
        customer_id: customerId,
        type: 'minus_point',
        points: -decision.points,
        program_id: null,
        program_kind: null,
        program_version: null,
        source_type: EXPIRY,
        source_id: `${customerId}:${runDate}`,
        reverses_id: null,
        explanation: JSON.stringify({
          runDate,
          rule: { afterValue: rule.afterValue, afterUnit: rule.afterUnit },
          consumed: decision.consumed,
          message: `${decision.points} points expired: ${decision.consumed.map((c) => `${c.points} of the points earned on ${c.earnedOn}`).join(', ')} (points expire ${rule.afterValue} ${rule.afterUnit}${rule.afterValue === 1 ? '' : 's'} after they are earned).`,
        }),
        created_at: iso,
        available_at: null,
      },
    ]);
  }
  // Reminders look at the balance after today's expiry (credits consumed today are gone).
  const after = decision.points > 0 ? { credits, debits: [...debits, { id: 'today', points: decision.points, at: iso, allocations: decision.consumed }] } : { credits, debits };
  const reminders = dueReminders(after.credits, after.debits, rule, timeZone, runDate);
  for (const r of reminders) {
    await tx
      .insertInto('point_expiry_reminders')
      .values({ id: crypto.randomUUID(), shop_id: shopId, customer_id: customerId, expires_on: r.expiresOn, days_before: r.daysBefore, points: r.points, due_on: runDate, created_at: iso, sent_at: null })
      .onConflict((oc) => oc.columns(['shop_id', 'customer_id', 'expires_on', 'days_before']).doNothing())
      .execute();
  }
  await tx.insertInto('point_expiry_runs').values({ shop_id: shopId, customer_id: customerId, run_date: runDate, points: decision.points, created_at: iso }).execute();
  return { points: decision.points, reminders: reminders.length };
}

const BATCH = 200;

/**
 * The daily job of one store for the store-local date of `now` (spec 002 §9): point expiry when
 * the shop's `pointExpiry.enabled`, then VIP tier demotion when the program is launched. A day
 * already finished returns `ran: false` and changes nothing; a day cut short part-way resumes
 * with the customers not yet done. One transaction per customer.
 * @param now the clock (tests pass a fixed one)
 */
export async function runDailyJob(db: Db, shopId: string, now: Date): Promise<ExpiryRunResult> {
  const shop = await db.selectFrom('shops').selectAll().where('id', '=', shopId).executeTakeFirstOrThrow();
  const timeZone = shop.iana_timezone;
  const runDate = localDate(now, timeZone);
  const result: ExpiryRunResult = { shopId, runDate, ran: false, customersChecked: 0, customersExpired: 0, pointsExpired: 0, remindersRecorded: 0, demoted: 0 };
  const finished = await db.selectFrom('point_expiry_shop_runs').select('run_date').where('shop_id', '=', shopId).where('run_date', '=', runDate).executeTakeFirst();
  if (finished) return result;
  result.ran = true;
  const rule = expiryRuleOf(shopSettings(shop));
  if (rule.enabled) {
    const previous = await db.selectFrom('point_expiry_shop_runs').select((eb) => eb.fn.max('run_date').as('last')).where('shop_id', '=', shopId).where('run_date', '<', runDate).executeTakeFirst();
    const last = previous?.last ?? null;
    // Credits earned up to `upper` may be due today (expiry or a reminder); those earned before
    // `lower` were already expired by the previous run. Four days of margin each way cover
    // month-end clamping (31 January + 1 month expires 28 February); the per-customer replay
    // decides exactly, and a customer's day runs once.
    const upper = startOfLocalDay(addToLocalDate(latestEarnedOn(runDate, rule), 4, 'day'), timeZone);
    const lower = last ? startOfLocalDay(addToLocalDate(addToLocalDate(last, -rule.afterValue, rule.afterUnit), -3, 'day'), timeZone) : null;
    let after = '';
    for (;;) {
      let q = db.selectFrom('ledger_entries').select('customer_id').distinct().where('shop_id', '=', shopId).where('points', '>', 0).where('created_at', '<', upper).where('customer_id', '>', after);
      if (lower) q = q.where('created_at', '>=', lower);
      const page = await q.orderBy('customer_id').limit(BATCH).execute();
      for (const { customer_id: customerId } of page) {
        const done = await db.transaction().execute((tx) => expireCustomer(tx, shopId, customerId, rule, timeZone, runDate, now));
        result.customersChecked += 1;
        if (done && done.points > 0) {
          result.customersExpired += 1;
          result.pointsExpired += done.points;
        }
        result.remindersRecorded += done?.reminders ?? 0;
      }
      if (page.length < BATCH) break;
      after = page.at(-1)!.customer_id;
    }
  }
  result.demoted = (await runTierDemotions(db, shopId, now)).length;
  await db.insertInto('point_expiry_shop_runs').values({ shop_id: shopId, run_date: runDate, finished_at: now.toISOString() }).onConflict((oc) => oc.columns(['shop_id', 'run_date']).doNothing()).execute();
  return result;
}

/**
 * One pass of the scheduler: every store whose current store-local date has no finished daily run
 * (its local day boundary has passed since the last one) and that uses expiry or a launched VIP
 * program gets `runDailyJob`. Errors of one store are logged and do not stop the others.
 */
export async function runDueDailyJobs(db: Db, now: Date, logger?: Logger): Promise<ExpiryRunResult[]> {
  const launched = new Set(await launchedShops(db));
  const shops = await db.selectFrom('shops').select(['id', 'settings']).execute();
  const results: ExpiryRunResult[] = [];
  for (const s of shops) {
    if (!launched.has(s.id) && !expiryRuleOf(shopSettings(s)).enabled) continue;
    try {
      const r = await runDailyJob(db, s.id, now);
      if (r.ran) results.push(r);
    } catch (e) {
      logger?.error({ err: e, shopId: s.id }, 'the daily expiry and demotion job failed for a shop');
    }
  }
  return results;
}

/**
 * Starts the daily job scheduler (server/main.ts; never in tests, which call `runDailyJob` with a
 * fixed clock): every `everyMs` (15 minutes) it runs the stores whose local day has turned. The
 * timer does not keep the process alive. Returns a stop function that waits for a pass in hand.
 */
export function startDailyJobs(db: Db, logger: Logger, everyMs = 15 * 60_000): () => Promise<void> {
  return startPeriodic(() => runDueDailyJobs(db, new Date(), logger), logger, 'daily job', everyMs, 5_000);
}
