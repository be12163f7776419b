/**
 * The preview's speed (issue 15, part of `npm run bench`): `simulateProgram`
 * (server/services/simulate.ts) over 100,000 stored orders with the 10 bench programs
 * (scripts/bench/programs.ts), end to end — reading the orders' replay form from a migrated SQLite
 * file (`order_replay`, server/services/simulate-compact.ts), decoding and replaying them on the
 * fast path (the programs as saved, and the draft), the explanations of the changed orders shown —
 * printed beside a bare baseline of the same run: the fast path over the same orders already in
 * memory, one pass with the saved programs (and, under `npm run bench`, the fast path's rate on the
 * bench pool). Target: ≤ 1 s (the median of BENCH_PREVIEW_RUNS runs, 5, after one warm-up); a miss
 * is reported to the caller, which exits 1 (alone: this script exits 1). BENCH_PREVIEW_DB=<file>
 * keeps the seeded file for the next run; BENCH_PREVIEW_ORDERS (100,000) sizes it.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadRegistry } from '../../engine/registry';
import { normalizeOrder } from '../../engine/order';
import type { JsonObject } from '../../engine/types';
import { openDatabase } from '../../server/db/database';
import type { OrderFactsTable, OrderReplayTable } from '../../server/db/tables';
import { ensureShop } from '../../server/store/shops';
import { insertDocument, listDocuments } from '../../server/store/documents';
import { compilePrograms } from '../../engine/fast-path';
import { lineProductKeys, loadOrderFacts, packFacts, simulateProgram } from '../../server/services/simulate';
import { encodeReplay } from '../../server/services/simulate-compact';
import { prng } from './orders';
import { PROGRAM_DATA } from './programs';

const SHOP = 'bench-preview.myshopify.com';
export const PREVIEW_ORDERS = Number(process.env.BENCH_PREVIEW_ORDERS ?? 100_000);
export const PREVIEW_TARGET_MS = 1_000;
const RUNS = Number(process.env.BENCH_PREVIEW_RUNS ?? 5);
const NOW = new Date('2026-04-16T00:00:00Z');

/** A product variant of the bench shop's catalogue: what a line says about its product. */
interface Variant {
  product_id: string;
  variant_id: number;
  title: string;
  vendor: string;
  product_type: string;
  sku: string;
  tags: string;
  collection_ids: number[];
  price: string;
  gift_card: boolean;
}

/** 400 variants with the bench pool's attribute values (scripts/bench.ts), fixed per variant as in a real catalogue. */
function catalogue(random: () => number): Variant[] {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  return Array.from({ length: 400 }, (_, v) => ({
    product_id: pick(['7001', '7002', '7003', '7004', '7005']),
    variant_id: v + 1,
    title: pick(['Snowboard', 'Board wax', 'Ski goggles', 'Gift card', 'Helmet']),
    vendor: pick(['Acme', 'Acme', 'Globex', 'Initech']),
    product_type: pick(['Snowboards', 'Snow gear', 'Accessories', '']),
    sku: pick(['SUB-1', 'SUB-2', 'SKU-1', 'SKU-2']),
    tags: pick(['', 'new', 'clearance', 'new, winter']),
    collection_ids: pick([[1001], [1002, 1003], [1004], []]),
    price: `${Math.floor(random() * 150)}.${pick(['00', '50', '99', '05'])}`,
    gift_card: random() < 0.05,
  }));
}

/** A platform-shaped order body like scripts/bench.ts's pool (1–6 lines of catalogue variants, customers repeating). */
function body(n: number, random: () => number, variants: readonly Variant[]): Record<string, unknown> {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const chance = (p: number) => random() < p;
  const start = Date.parse('2026-01-20T00:00:00Z');
  const span = NOW.getTime() - start;
  const lines = Array.from({ length: 1 + Math.floor(random() * 6) }, (_, i) => ({
    id: `${n}-${i}`,
    ...pick(variants),
    quantity: pick([1, 1, 1, 2, 3, 0]),
    discount_allocations: chance(0.2) ? [{ amount: '5.00' }] : [],
    ...(chance(0.3) ? { selling_plan_allocation: { selling_plan: { id: 1 } } } : {}),
  }));
  const subtotal = lines.reduce((sum, l) => sum + Number(l.price) * l.quantity, 0);
  return {
    id: `${900_000 + n}`,
    name: `#${1000 + n}`,
    created_at: new Date(start + Math.floor(random() * span)).toISOString(),
    currency: 'USD',
    test: chance(0.02),
    cancelled_at: chance(0.02) ? '2026-03-02T10:00:00Z' : null,
    financial_status: 'paid',
    source_name: pick(['web', 'web', 'pos', 'shopify_draft_order']),
    subtotal_price: subtotal.toFixed(2),
    total_price: (subtotal + 10).toFixed(2),
    total_tax: '4.00',
    total_shipping_price_set: { shop_money: { amount: '6.00', currency_code: 'USD' } },
    tags: pick(['', 'spring', 'spring, sale', 'wholesale']),
    discount_codes: chance(0.2) ? [{ code: pick(['LAUNCH', 'SPRING10']) }] : [],
    line_items: lines,
    customer: {
      id: `${600_000 + Math.floor(random() * 20_000)}`,
      email: pick(['ada@example.com', 'bob@shop.test', '']),
      first_name: 'Ada',
      last_name: 'Lovelace',
      tags: pick(['', 'vip', 'gold, staff', 'staff']),
      orders_count: Math.floor(random() * 15),
      total_spent: `${Math.floor(random() * 2000)}.00`,
    },
  };
}

/**
 * The bare baseline of the same run: the window's orders already in memory as objects (read
 * before timing), evaluated once by the fast path with the saved programs; median of 3 passes.
 */
async function inMemoryPass(db: Awaited<ReturnType<typeof openDatabase>>, now: Date): Promise<{ ms: number; perSecond: number }> {
  const orders = await loadOrderFacts(db, SHOP, new Date(now.getTime() - 90 * 86_400_000).toISOString());
  const saved = await listDocuments(db, SHOP, ['earning.place_order']);
  const evaluator = compilePrograms(saved, { timeZone: 'America/New_York', customer: { id: '', type: 'member', tierId: null }, history: [] });
  const passes: number[] = [];
  let points = 0;
  for (let pass = 0; pass < 4; pass++) {
    const started = performance.now();
    for (const o of orders) points += evaluator.evaluate(o.facts).totalPoints;
    if (pass > 0) passes.push(performance.now() - started);
  }
  if (points < 0) throw new Error('unreachable');
  passes.sort((a, b) => a - b);
  const ms = passes[1] ?? 0;
  return { ms, perSecond: ms > 0 ? (orders.length * 1000) / ms : 0 };
}

/** What the preview bench measured. */
export interface PreviewFigures {
  orders: number;
  /** Median end-to-end milliseconds of one preview, and its load and replay parts. */
  totalMs: number;
  loadMs: number;
  replayMs: number;
  /** Orders per second of the preview's replay part (decoding, the saved programs, the draft). */
  replayPerSecond: number;
  ordersChanged: number;
  met: boolean;
}

/**
 * Seeds a temporary SQLite file (the app's migrations) with the 10 programs and PREVIEW_ORDERS
 * stored orders, previews a draft (the base program earning 2 points per $1 instead of 1) over
 * 90 days RUNS times, prints the figures beside `fastPathPerSecond` and returns them.
 */
export async function benchPreview(fastPathPerSecond: number): Promise<PreviewFigures> {
  const keep = process.env.BENCH_PREVIEW_DB;
  const dir = keep ? '' : mkdtempSync(join(tmpdir(), 'bench-preview-'));
  const reuse = keep !== undefined && existsSync(keep);
  const db = await openDatabase(keep ?? join(dir, 'preview.sqlite'), { checkpointer: false });
  try {
    const registry = loadRegistry(join(import.meta.dirname, '..', '..', 'schemas'));
    const kind = registry.get('earning.place_order');
    if (!kind) throw new Error('earning.place_order is not registered');
    const ids: string[] = reuse ? (await db.selectFrom('documents').select('id').where('shop_id', '=', SHOP).orderBy('created_at').execute()).map((r) => r.id) : [];
    if (!reuse) await ensureShop(db, SHOP, NOW.toISOString(), { currency: 'USD', iana_timezone: 'America/New_York', plan: 'enterprise_2025', settings: '{}' });
    for (const [i, data] of (reuse ? [] : PROGRAM_DATA).entries()) {
      const full: JsonObject = { status: true, rateMoney: 1, rateItem: 1, statusUseCondition: true, ...data };
      const doc = await insertDocument(db, SHOP, kind.id, kind.version, full, new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString());
      ids.push(doc.id);
    }
    const random = prng(20_261_125);
    const variants = catalogue(random);
    const seeding = performance.now();
    for (let start = 0; !reuse && start < PREVIEW_ORDERS; start += 2_000) {
      const rows: OrderFactsTable[] = [];
      const replays: OrderReplayTable[] = [];
      const products = new Map<string, string>();
      for (let n = start; n < Math.min(PREVIEW_ORDERS, start + 2_000); n++) {
        const facts = normalizeOrder(body(n, random, variants), 'USD');
        const { packed, products: mine } = packFacts(facts);
        for (const [key, attrs] of mine) products.set(key, attrs);
        const placedAt = new Date(facts.createdAt).toISOString();
        rows.push({ shop_id: SHOP, order_id: facts.id, placed_at: placedAt, customer_id: facts.customer?.id ?? null, customer_type: 'member', tier_id: null, awarded_points: 0, facts: JSON.stringify(packed) });
        const replay = encodeReplay(facts, lineProductKeys(packed), { id: facts.customer?.id ?? '', type: 'member', tierId: null }, 0);
        replays.push({ shop_id: SHOP, placed_at: placedAt, order_id: facts.id, customer_id: facts.customer?.id ?? null, replay });
      }
      const records = [...products].map(([key, attrs]) => ({ shop_id: SHOP, key, attrs }));
      await db.transaction().execute(async (tx) => {
        for (let i = 0; i < records.length; i += 100) await tx.insertInto('order_line_products').values(records.slice(i, i + 100)).onConflict((oc) => oc.columns(['shop_id', 'key']).doNothing()).execute();
        for (let i = 0; i < rows.length; i += 100) await tx.insertInto('order_facts').values(rows.slice(i, i + 100)).execute();
        for (let i = 0; i < replays.length; i += 100) await tx.insertInto('order_replay').values(replays.slice(i, i + 100)).execute();
      });
    }
    if (!reuse) console.log(`preview: seeded ${PREVIEW_ORDERS.toLocaleString('en-US')} stored orders and ${ids.length} programs in ${((performance.now() - seeding) / 1000).toFixed(1)} s`);

    const base = PROGRAM_DATA[0] as JsonObject;
    const draft: JsonObject = { status: true, rateMoney: 1, rateItem: 1, statusUseCondition: true, ...base, earnPoint: 2 };
    const deps = { db, registry, auth: { apiKey: 'bench', apiSecret: 'bench', demo: false }, now: () => NOW };
    const runs: { total: number; load: number; replay: number; changed: number; replayed: number }[] = [];
    for (let r = 0; r < RUNS + 1; r++) {
      const started = performance.now();
      const result = await simulateProgram(deps, SHOP, { id: ids[0], data: draft, windowDays: 90 });
      const total = performance.now() - started;
      if (r > 0) runs.push({ total, load: result.timings.loadMs, replay: result.timings.replayMs, changed: result.ordersChanged, replayed: result.ordersReplayed });
    }
    runs.sort((a, b) => a.total - b.total);
    const median = runs[Math.floor(runs.length / 2)];
    if (!median || median.replayed !== PREVIEW_ORDERS) throw new Error(`preview replayed ${median?.replayed ?? 0} orders, expected ${PREVIEW_ORDERS}`);
    const replayPerSecond = median.replay > 0 ? (median.replayed * 1000) / median.replay : 0;
    const bare = await inMemoryPass(db, NOW);
    const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
    console.log(
      `preview (${fmt(PREVIEW_ORDERS)} stored orders, ${ids.length} programs, 90 days, median of ${RUNS}): ${fmt(median.total)} ms end to end ` +
        `(loading ${fmt(median.load)} ms, replay with decoding ${fmt(median.replay)} ms = ${fmt(replayPerSecond)} orders/s; ${fmt(median.changed)} orders change) — ` +
        `fast path in memory on the same orders, saved programs, one pass: ${fmt(bare.ms)} ms (${fmt(bare.perSecond)} orders/s, median of 3)` +
        (fastPathPerSecond > 0 ? `; on the bench pool: ${fmt(fastPathPerSecond)} orders/s` : '') +
        `; target ≤ ${fmt(PREVIEW_TARGET_MS)} ms end to end`,
    );
    return { orders: PREVIEW_ORDERS, totalMs: median.total, loadMs: median.load, replayMs: median.replay, replayPerSecond, ordersChanged: median.changed, met: median.total <= PREVIEW_TARGET_MS };
  } finally {
    await db.destroy();
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
}

// `npx tsx scripts/bench/preview.ts`: the preview alone (no fast-path rate beside it).
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const figures = await benchPreview(0);
  if (!figures.met) process.exit(1);
}
