/**
 * The daily birthday and member-anniversary job (issue 11; spec 001 §3 birthday,
 * member_anniversary; spec 002 §5 "Birthday reward only after 30 days since the last update"):
 * once per store-local date, every customer whose birthday (MM/DD; 29 February on 28 February in
 * common years) or join anniversary falls on that date in the store's timezone is run through
 * `awardEvent`, which applies the programs' rules (30 days' notice, eligibility, limits). Source ids
 * `birthday:<customer id>:<year>` and `member_anniversary:<customer id>:<year>` make a second run
 * of a day, or a crash part-way, award nothing twice. Started by server/main.ts like the point
 * expiry job; tests call `runBirthdayJob` with a fixed clock.
 */
import { sql } from 'kysely';
import { localDate } from '../../engine/store-time';
import type { Db } from '../db/database';
import type { Logger } from '../logging';
import { startPeriodic } from './scheduler';
import { awardEvent, type EventDeps } from '../services/earning-events';

const JOB = 'birthdays';
const KINDS = ['earning.birthday', 'earning.member_anniversary'] as const;
const BATCH = 200;

/** What one store's run did (points are whole points). */
export interface BirthdayRunResult {
  shopId: string;
  /** Store-local YYYY-MM-DD. */
  runDate: string;
  /** False when the day had run already or the shop has no active birthday or anniversary program. */
  ran: boolean;
  birthdays: { customers: number; points: number };
  anniversaries: { customers: number; points: number };
}

const isLeap = (year: number): boolean => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;

function shiftDate(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** Month-days (MM-DD) observed on `date`: its own, plus 29 February on 28 February of a common year. */
function observedMonthDays(date: string): string[] {
  const md = date.slice(5);
  return md === '02-28' && !isLeap(Number(date.slice(0, 4))) ? [md, '02-29'] : [md];
}

async function activeKinds(db: Db, shopId: string): Promise<Set<string>> {
  const rows = await db.selectFrom('documents').select(['kind', 'data']).where('shop_id', '=', shopId).where('kind', 'in', [...KINDS]).execute();
  const on = new Set<string>();
  for (const r of rows) {
    try {
      if ((JSON.parse(r.data) as { status?: unknown }).status === true) on.add(r.kind);
    } catch {
      // A stored document that does not parse takes no part.
    }
  }
  return on;
}

/** Pages of customer ids matching `where`, in id order. */
async function* customerPages(db: Db, shopId: string, filter: (q: ReturnType<typeof base>) => ReturnType<typeof base>): AsyncGenerator<{ id: string; created_at: string }[]> {
  let after = '';
  for (;;) {
    const page = await filter(base(db, shopId)).where('id', '>', after).orderBy('id').limit(BATCH).execute();
    if (page.length > 0) yield page;
    if (page.length < BATCH) return;
    after = page.at(-1)!.id;
  }
}

function base(db: Db, shopId: string) {
  return db.selectFrom('customers').select(['id', 'created_at']).where('shop_id', '=', shopId).where('type', '!=', 'left');
}

/**
 * Runs the job for one store and the store-local date of `now`. One transaction per customer; the
 * day is marked finished at the end, so a run cut short resumes (and skips what it awarded).
 * @param now the clock (tests pass a fixed one)
 */
export async function runBirthdayJob(deps: EventDeps, shopId: string, now: Date): Promise<BirthdayRunResult> {
  const shop = await deps.db.selectFrom('shops').select('iana_timezone').where('id', '=', shopId).executeTakeFirstOrThrow();
  const runDate = localDate(now, shop.iana_timezone);
  const year = runDate.slice(0, 4);
  const result: BirthdayRunResult = { shopId, runDate, ran: false, birthdays: { customers: 0, points: 0 }, anniversaries: { customers: 0, points: 0 } };
  const finished = await deps.db.selectFrom('event_job_runs').select('run_date').where('shop_id', '=', shopId).where('job', '=', JOB).where('run_date', '=', runDate).executeTakeFirst();
  if (finished) return result;
  const kinds = await activeKinds(deps.db, shopId);
  if (kinds.size === 0) return result;
  result.ran = true;
  const at = now.toISOString();
  const monthDays = observedMonthDays(runDate);

  if (kinds.has('earning.birthday')) {
    const stored = monthDays.map((md) => md.replace('-', '/'));
    for await (const page of customerPages(deps.db, shopId, (q) => q.where('birthday', 'in', stored))) {
      for (const c of page) {
        const r = await awardEvent(deps, shopId, { event: 'birthday', key: `${c.id}:${year}`, customerId: c.id, at, details: { runDate } });
        if (r.awarded > 0) {
          result.birthdays.customers += 1;
          result.birthdays.points += r.awarded;
        }
      }
    }
  }
  if (kinds.has('earning.member_anniversary')) {
    // created_at is a UTC instant: the store-local join date is within a day of its UTC date, so
    // the three UTC month-days around each observed one find every candidate; the engine decides.
    const candidates = new Set([-1, 0, 1].map((d) => shiftDate(runDate, d).slice(5)));
    if (monthDays.includes('02-29')) ['02-29', '03-01'].forEach((md) => candidates.add(md));
    for await (const page of customerPages(deps.db, shopId, (q) => q.where(sql<string>`substr(created_at, 6, 5)`, 'in', [...candidates]))) {
      for (const c of page) {
        if (!monthDays.includes(localDate(new Date(c.created_at), shop.iana_timezone).slice(5))) continue;
        const r = await awardEvent(deps, shopId, { event: 'member_anniversary', key: `${c.id}:${year}`, customerId: c.id, at, details: { runDate } });
        if (r.awarded > 0) {
          result.anniversaries.customers += 1;
          result.anniversaries.points += r.awarded;
        }
      }
    }
  }
  await deps.db.insertInto('event_job_runs').values({ shop_id: shopId, job: JOB, run_date: runDate, finished_at: at }).onConflict((oc) => oc.columns(['shop_id', 'job', 'run_date']).doNothing()).execute();
  return result;
}

/**
 * One pass of the scheduler: every store with a birthday or anniversary program whose store-local
 * day has no finished run gets `runBirthdayJob`. One store's failure is logged and does not stop the others.
 */
export async function runDueBirthdayJobs(deps: EventDeps, now: Date, logger?: Logger): Promise<BirthdayRunResult[]> {
  const shops = await deps.db.selectFrom('documents').select('shop_id').distinct().where('kind', 'in', [...KINDS]).execute();
  const results: BirthdayRunResult[] = [];
  for (const { shop_id: shopId } of shops) {
    try {
      const r = await runBirthdayJob(deps, shopId, now);
      if (r.ran) results.push(r);
    } catch (e) {
      logger?.error({ err: e, shopId }, 'the daily birthday and anniversary job failed for a shop');
    }
  }
  return results;
}

/**
 * Starts the scheduler (server/main.ts; never in tests): every `everyMs` (15 minutes) it runs the
 * stores whose local day has turned. The timer does not keep the process alive. Returns a stop
 * function that waits for a pass in hand.
 */
export function startBirthdayJobs(deps: EventDeps, logger: Logger, everyMs = 15 * 60_000): () => Promise<void> {
  return startPeriodic(() => runDueBirthdayJobs(deps, new Date(), logger), logger, 'birthday job', everyMs, 7_000);
}
