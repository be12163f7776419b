/**
 * Customer segments (issue 10; spec 002 §2 "Customer segmentation uses 11 predefined RFM groups",
 * the customers list's Left segment tab; §4 "a customer in an excluded segment can be reverted").
 *
 * Each customer carries the RFM group the platform last reported (customers.rfm_group, read through
 * server/platform/customer-segments.ts). The merchant excludes groups in the settings' Segments
 * section (`segments.excludedRfmGroups`). The segment rule then holds, in one transaction with the
 * change that triggers it (a settings save or a sync):
 * - a member whose group is excluded leaves the program: type `left`, left_reason `segment`
 *   (every earning, redeeming, referral and VIP path already refuses `left`);
 * - a customer who left through a segment whose group is no longer excluded is a member again;
 * - a customer the merchant let back in (segment_reverted = 1) is left alone.
 * Every move is a customer event (`segment_left` / `segment_returned`) with who and when.
 */
import { sql, type Expression, type ExpressionBuilder, type RawBuilder, type SqlBool } from 'kysely';
import type { Database } from '../db/tables';
import type { Db } from '../db/database';
import type { AppDeps } from '../deps';
import { LocalCustomerSegments, RFM_BATCH, RFM_GROUPS, ShopifyCustomerSegments, isRfmGroup, type PlatformCustomerSegments, type RfmGroup } from '../platform/customer-segments';
import { accessToken } from '../platform/access-tokens';
import { shopSettings } from './settings';

const nowIso = (deps: AppDeps): string => (deps.now ?? (() => new Date()))().toISOString();

/**
 * The RFM adapter of `deps`: `deps.platformSegments`; else in demo mode the local one over the
 * app's own orders; else the Admin GraphQL one with the shop's offline access token.
 */
export function segmentsAdapterOf(deps: AppDeps): PlatformCustomerSegments {
  if (deps.platformSegments) return deps.platformSegments;
  if (deps.auth.demo) return new LocalCustomerSegments(deps.db, deps.now);
  return new ShopifyCustomerSegments({
    accessToken: (shopId) => accessToken(deps, shopId),
  });
}

/** The groups a settings object excludes, in RFM_GROUPS order, unknown values dropped. */
export function excludedGroupsOf(settings: { segments?: { excludedRfmGroups?: readonly unknown[] } }): RfmGroup[] {
  const wanted = new Set(settings.segments?.excludedRfmGroups ?? []);
  return RFM_GROUPS.filter((g) => wanted.has(g));
}

/** How many customers the segment rule moved: out of the program, and back in. */
export interface SegmentMoves {
  left: number;
  returned: number;
}

/**
 * Applies the segment rule (see the module comment) to every customer of `shopId` for the
 * `excluded` groups, recording one event per moved customer with `actor` at `now` (ISO instant).
 * Runs as set-based statements (no row-by-row work); call it inside the transaction of the change.
 */
export async function applySegmentRule(db: Db, shopId: string, excluded: readonly RfmGroup[], now: string, actor: string): Promise<SegmentMoves> {
  // No group excluded: a list no customer matches (an empty IN list is not valid SQL).
  const groups = excluded.length > 0 ? [...excluded] : ['-'];
  const suffix = `:${crypto.randomUUID()}`;
  /** Records one `kind` event per customer `who` selects (detail: the move and the group), then moves them; answers how many moved. */
  const move = async (kind: string, who: Condition, detail: RawBuilder<string>, to: { type: string; left_reason: string | null }): Promise<number> => {
    await db
      .insertInto('customer_events')
      .columns(['id', 'shop_id', 'customer_id', 'kind', 'detail', 'actor', 'created_at'])
      .expression(
        db
          .selectFrom('customers')
          .where(who)
          .select([
            sql<string>`${kind + ':'} || id || ${suffix}`.as('id'),
            'shop_id',
            sql<string>`id`.as('customer_id'),
            sql<string>`${kind}`.as('kind'),
            detail.as('detail'),
            sql<string>`${actor}`.as('actor'),
            sql<string>`${now}`.as('created_at'),
          ]),
      )
      .execute();
    const moved = await db
      .updateTable('customers')
      .set({ ...to, updated_at: now })
      .where(who)
      .executeTakeFirst();
    return Number(moved.numUpdatedRows);
  };
  // Out: members whose group is excluded and whom the merchant did not let back in.
  const left = await move(
    'segment_left',
    (eb) => eb.and([eb('shop_id', '=', shopId), eb('type', '=', 'member'), eb('segment_reverted', '=', 0), eb('rfm_group', 'in', groups)]),
    sql<string>`'{"from":"member","to":"left","rfmGroup":"' || rfm_group || '"}'`,
    { type: 'left', left_reason: 'segment' },
  );
  // Back in: left through a segment whose group is no longer excluded (or no longer known).
  const returned = await move(
    'segment_returned',
    (eb) => eb.and([eb('shop_id', '=', shopId), eb('type', '=', 'left'), eb('left_reason', '=', 'segment'), eb.or([eb('rfm_group', 'is', null), eb('rfm_group', 'not in', groups)])]),
    sql<string>`'{"from":"left","to":"member","rfmGroup":' || coalesce('"' || rfm_group || '"', 'null') || '}'`,
    { type: 'member', left_reason: null },
  );
  return { left, returned };
}

/** A condition on customers rows, used alike by a select and an update. */
type Condition = (eb: ExpressionBuilder<Database, 'customers'>) => Expression<SqlBool>;

/** What a sync did: customers asked about, groups that changed, and the rule's moves. */
export interface SegmentSync extends SegmentMoves {
  customers: number;
  changed: number;
  syncedAt: string;
}

/**
 * Reads every customer's RFM group of `shopId` from the platform (`RFM_BATCH` per call, in id
 * order), stores the changed ones, then applies the segment rule for the shop's excluded groups,
 * each batch in its own transaction (a platform failure midway keeps what was read; the next sync
 * finishes). Throws what the adapter throws (ApiError 502 / 401).
 */
export async function syncRfmGroups(deps: AppDeps, shopId: string, adapter: PlatformCustomerSegments, actor = 'system'): Promise<SegmentSync> {
  let after = '';
  let customers = 0;
  let changed = 0;
  const moves: SegmentMoves = { left: 0, returned: 0 };
  for (;;) {
    const rows = await deps.db.selectFrom('customers').select(['id', 'rfm_group']).where('shop_id', '=', shopId).where('id', '>', after).orderBy('id').limit(RFM_BATCH).execute();
    if (rows.length === 0) break;
    after = rows.at(-1)!.id;
    customers += rows.length;
    const groups = await adapter.rfmGroups(
      shopId,
      rows.map((r) => r.id),
    );
    const updates = rows.filter((r) => groups.has(r.id) && (groups.get(r.id) ?? null) !== (r.rfm_group ?? null));
    if (updates.length === 0) continue;
    changed += updates.length;
    await deps.db.transaction().execute(async (tx) => {
      // One statement per group present in the batch (at most 12), not one per customer.
      const byGroup = new Map<RfmGroup | null, string[]>();
      for (const r of updates) {
        const g = groups.get(r.id) ?? null;
        const ids = byGroup.get(g) ?? [];
        ids.push(r.id);
        byGroup.set(g, ids);
      }
      for (const [group, ids] of byGroup) await tx.updateTable('customers').set({ rfm_group: group }).where('shop_id', '=', shopId).where('id', 'in', ids).execute();
    });
  }
  const syncedAt = nowIso(deps);
  await deps.db.transaction().execute(async (tx) => {
    const excluded = excludedGroupsOf(await shopSettings(tx, shopId));
    const m = await applySegmentRule(tx, shopId, excluded, syncedAt, actor);
    moves.left += m.left;
    moves.returned += m.returned;
    await tx.updateTable('shops').set({ segments_synced_at: syncedAt }).where('id', '=', shopId).execute();
  });
  return { customers, changed, ...moves, syncedAt };
}

/** One RFM group's line of the segments screen. */
export interface SegmentLine {
  group: RfmGroup;
  /** Customers the platform filed in the group. */
  customers: number;
  excluded: boolean;
  /** Customers out of the program because of this group (type left, left_reason segment). */
  leftSegment: number;
}

/** The segments screen's data: the eleven groups in RFM_GROUPS order, the unscored count and the last sync. */
export interface SegmentSummary {
  groups: SegmentLine[];
  /** Customers with no group yet (never synced, or not scored by the platform). */
  unscored: number;
  syncedAt: string | null;
}

/** Counts per group for `shopId` (one grouped query over customers_by_rfm_group). */
export async function segmentSummary(deps: AppDeps, shopId: string): Promise<SegmentSummary> {
  const rows = await deps.db
    .selectFrom('customers')
    .select(['rfm_group', (eb) => eb.fn.countAll<number>().as('n'), sql<number>`sum(case when type = 'left' and left_reason = 'segment' then 1 else 0 end)`.as('out')])
    .where('shop_id', '=', shopId)
    .groupBy('rfm_group')
    .execute();
  const excluded = new Set(excludedGroupsOf(await shopSettings(deps.db, shopId)));
  const counts = new Map(rows.map((r) => [r.rfm_group ?? null, r]));
  const shop = await deps.db.selectFrom('shops').select('segments_synced_at').where('id', '=', shopId).executeTakeFirst();
  return {
    groups: RFM_GROUPS.map((group) => ({
      group,
      customers: Number(counts.get(group)?.n ?? 0),
      excluded: excluded.has(group),
      leftSegment: Number(counts.get(group)?.out ?? 0),
    })),
    unscored: rows.filter((r) => !isRfmGroup(r.rfm_group)).reduce((n, r) => n + Number(r.n), 0),
    syncedAt: shop?.segments_synced_at ?? null,
  };
}

/**
 * The daily sync of every shop (main.ts runs it once a day): each shop's groups are read and the
 * rule applied; a shop whose platform call fails is logged and the rest go on. Answers how many
 * shops synced.
 */
export async function syncAllSegments(deps: AppDeps): Promise<number> {
  const shops = await deps.db.selectFrom('shops').select('id').orderBy('id').execute();
  const adapter = segmentsAdapterOf(deps);
  let done = 0;
  for (const { id } of shops) {
    try {
      await syncRfmGroups(deps, id, adapter);
      done++;
    } catch (e) {
      deps.logger?.warn({ err: e, shopId: id }, 'customer segments could not be read from the platform');
    }
  }
  return done;
}
