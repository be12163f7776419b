/**
 * Milestones at run time (issue 11; spec 002 §3 Milestone rule, spec 001 §3 Milestone types and
 * rewards): after every award (an order, an earning event, a review) the customer's progress is
 * read and the shop's milestone programs (engine/milestones.ts `evaluateMilestones`) decide which
 * steps it newly reaches — every one with `all_rewards`, only the highest with `highest_only` (the
 * lower ones are passed over for good). Each step is settled once per customer (`milestone_steps`,
 * migration 0017): bonus points become a ledger entry with source `milestone` and source id
 * `<customer id>#<step index>` (program id = the milestone program), coupon and product rewards a
 * `reward_pending` row for the discount adapter (server/platform/discounts.ts) to issue after the
 * transaction — never a network call inside it.
 *
 * Progress (whole numbers): orders and amount spent from the customer's tier stats (every month,
 * amount in major units of the shop's currency), earned points from the customer's positive
 * `earn_point` / `pending_earn_point` entries other than milestone bonuses (so a bonus never feeds
 * its own program), approved reviews, referral awards. Inactivity milestones are not evaluated
 * after an award (the customer was just active).
 */
import { evaluateMilestones, type MilestoneProgress } from '../../engine/milestones';
import { currencyExponent, toMajor } from '../../engine/money';
import { availableAt } from '../../engine/pending';
import type { AppDeps } from '../deps';
import { groupReadKeys, readOncePerGroup, type Db } from '../db/database';
import type { LedgerEntriesTable, MilestoneStepsTable } from '../db/tables';
import { listDocuments } from '../store/documents';
import { appendEntries } from '../store/ledger';
import { shopOrThrow } from './orders';

/** Ledger `source_type` of milestone bonus points. */
export const MILESTONE_SOURCE = 'milestone';

/** What one milestone pass did: bonus points appended (whole points) and the steps settled. */
export interface MilestoneAwardResult {
  points: number;
  settled: MilestoneStepsTable[];
}

async function progressOf(tx: Db, shopId: string, customerId: string, currency: string): Promise<MilestoneProgress> {
  const stats = await tx
    .selectFrom('customer_tier_stats')
    .select((eb) => [eb.fn.sum<number>('orders').as('orders'), eb.fn.sum<number>('amount_spent_minor').as('minor')])
    .where('shop_id', '=', shopId)
    .where('customer_id', '=', customerId)
    .executeTakeFirst();
  const earned = await tx
    .selectFrom('ledger_entries')
    .select((eb) => eb.fn.sum<number>('points').as('points'))
    .where('shop_id', '=', shopId)
    .where('customer_id', '=', customerId)
    .where('type', 'in', ['earn_point', 'pending_earn_point'])
    .where('points', '>', 0)
    .where('source_type', '!=', MILESTONE_SOURCE)
    .executeTakeFirst();
  const reviews = await tx
    .selectFrom('reviews')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('shop_id', '=', shopId)
    .where('customer_id', '=', customerId)
    .where('status', '=', 'approved')
    .executeTakeFirst();
  // Friends this customer referred (completed referrals, server/services/referrals.ts) — not the
  // referral rewards on their ledger: a friend's own reward, or a coupon reward, would miscount.
  const referrals = await tx
    .selectFrom('referrals')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('shop_id', '=', shopId)
    .where('advocate_id', '=', customerId)
    .where('status', '=', 'completed')
    .executeTakeFirst();
  return {
    orders: Number(stats?.orders ?? 0),
    amountSpent: toMajor(Number(stats?.minor ?? 0), currencyExponent(currency)),
    earnedPoints: Number(earned?.points ?? 0),
    reviews: Number(reviews?.n ?? 0),
    referrals: Number(referrals?.n ?? 0),
  };
}

/**
 * Evaluates the shop's active milestone programs for one customer at `atIso` and settles the steps
 * newly reached (see the module comment). Call inside the transaction of the award that moved the
 * progress. A shop without milestone programs costs one query. Throws ApiError 404 `unknown_shop`.
 * @param deps the app's dependencies (the discount adapter issues pending coupon rewards later)
 */
export async function awardMilestones(tx: Db, deps: Pick<AppDeps, 'now' | 'db'>, shopId: string, customerId: string, atIso: string): Promise<MilestoneAwardResult> {
  // Read once per group of deliveries on the processing thread (readOncePerGroup; the programs are shared: filter copies).
  const programs = (await readOncePerGroup(deps.db, groupReadKeys.documents(shopId, 'earning.milestone'), () => listDocuments(tx, shopId, ['earning.milestone']))).filter((p) => p.data.status === true);
  if (programs.length === 0) return { points: 0, settled: [] };
  const shop = await readOncePerGroup(deps.db, groupReadKeys.shop(shopId), () => shopOrThrow(tx, shopId));
  const customer = await tx.selectFrom('customers').select('type').where('shop_id', '=', shopId).where('id', '=', customerId).executeTakeFirst();
  // Left (excluded) customers earn nothing, milestones included (spec 002 §4).
  if (!customer || customer.type === 'left') return { points: 0, settled: [] };
  const progress = await progressOf(tx, shopId, customerId, shop.currency);
  const steps = await tx.selectFrom('milestone_steps').select(['program_id', 'step_index']).where('shop_id', '=', shopId).where('customer_id', '=', customerId).execute();
  const settledKeys = new Set(steps.map((s) => `${s.program_id}#${s.step_index}`));
  const evaluation = evaluateMilestones(programs, progress, settledKeys, new Date(atIso), shop.timeZone);
  if (evaluation.rewards.length === 0 && evaluation.passedOver.length === 0) return { points: 0, settled: [] };

  const version = new Map(programs.map((p) => [p.id, p.version]));
  const pending = shop.pendingPoints.enabled;
  const until = availableAt(new Date(atIso), shop.pendingPoints).toISOString();
  const entries: LedgerEntriesTable[] = [];
  const settled: MilestoneStepsTable[] = [];
  for (const r of evaluation.rewards) {
    const bonus = r.action === 'bonus_point';
    if (bonus && r.points > 0) {
      entries.push({
        id: crypto.randomUUID(),
        shop_id: shopId,
        customer_id: customerId,
        type: pending ? 'pending_earn_point' : 'earn_point',
        points: r.points,
        program_id: r.programId,
        program_kind: 'earning.milestone',
        program_version: version.get(r.programId) ?? null,
        source_type: MILESTONE_SOURCE,
        source_id: `${customerId}#${r.stepIndex}`,
        reverses_id: null,
        explanation: JSON.stringify({ milestone: r, progress, message: `"${r.programTitle}" awards ${r.points} points for reaching ${r.value}.` }),
        created_at: atIso,
        available_at: pending ? until : null,
      });
    }
    settled.push({ shop_id: shopId, customer_id: customerId, program_id: r.programId, step_index: r.stepIndex, outcome: bonus ? 'awarded' : 'reward_pending', points: bonus ? r.points : 0, reward: JSON.stringify(r), created_at: atIso });
  }
  for (const p of evaluation.passedOver) {
    settled.push({ shop_id: shopId, customer_id: customerId, program_id: p.programId, step_index: p.stepIndex, outcome: 'passed_over', points: 0, reward: JSON.stringify(p), created_at: atIso });
  }
  await tx.insertInto('milestone_steps').values(settled).onConflict((oc) => oc.columns(['shop_id', 'customer_id', 'program_id', 'step_index']).doNothing()).execute();
  await appendEntries(tx, entries);
  return { points: evaluation.totalPoints, settled };
}

/** A customer's settled milestone steps, oldest first (the activity and the coupon issuer read them). */
export async function milestoneSteps(db: Db, shopId: string, customerId: string): Promise<MilestoneStepsTable[]> {
  return db.selectFrom('milestone_steps').selectAll().where('shop_id', '=', shopId).where('customer_id', '=', customerId).orderBy('created_at').orderBy('program_id').orderBy('step_index').execute();
}
