/**
 * Seeds a shop's customers and their ledger for `npm run bench:customers` (issue 10), written
 * straight into a SQLite file the app's own migrations made (as bench-ingest seeds its ledger).
 *
 * The shape, deterministic from a seed:
 * - customers with realistic names and e-mails (`ada.lovelace42@fastmail.com`, stored lowercase as
 *   the platform sends them), phones and birthdays for some, created and last updated over two
 *   years; types mixed: 75 % member, 15 % guest (no entries, 0 points), 10 % left (with an
 *   `excluded` membership event);
 * - `entries` ledger entries over the members and left customers, skewed as a real shop's are:
 *   0.05 % "whales" with 4,000 entries each, 1 % heavy buyers with 200 each, everyone else
 *   1–13; mostly order awards (`earn_point`, 5–500 points, an explanation shaped like the
 *   engine's decision), redemptions (`spend_point`, only what the balance allows), admin
 *   adjustments and some pending awards (`pending_earn_point`, available in 14 days);
 * - every customer's `points_balance` equal to the sum of their entries, and `points_earned` to
 *   what they earned (server/store/ledger.ts earnedBy).
 */
import SQLite from 'better-sqlite3';
import { prng } from './orders';
import { earnedBy } from '../../server/store/ledger';

const FIRST = [
  'Ada', 'Grace', 'Alan', 'Linus', 'Margaret', 'Katherine', 'Dorothy', 'Edsger', 'Barbara', 'Donald',
  'Frances', 'John', 'Mary', 'James', 'Patricia', 'Robert', 'Jennifer', 'Michael', 'Linda', 'William',
  'Elizabeth', 'David', 'Susan', 'Richard', 'Jessica', 'Joseph', 'Sarah', 'Thomas', 'Karen', 'Charles',
  'Nancy', 'Christopher', 'Lisa', 'Daniel', 'Betty', 'Matthew', 'Sandra', 'Anthony', 'Ashley', 'Mark',
  'Emily', 'Paul', 'Michelle', 'Steven', 'Amanda', 'Andrew', 'Melissa', 'Kenneth', 'Stephanie', 'Joshua',
  'Sophie', 'Lucas', 'Camille', 'Hugo', 'Léa', 'Chloé', 'Mateo', 'Lucía', 'Sofía', 'Martina',
  'Giulia', 'Lorenzo', 'Francesca', 'Matteo', 'Hannah', 'Lukas', 'Lena', 'Jonas', 'Yuki', 'Haruto',
  'Sakura', 'Ren', 'Aiko', 'Siti', 'Budi', 'Dewi', 'Agus', 'Putri', 'Omar', 'Fatima',
  'Amara', 'Kwame', 'Priya', 'Arjun', 'Ananya', 'Wei', 'Mei', 'Jun', 'Olga', 'Ivan',
  'Noah', 'Olivia', 'Liam', 'Emma', 'Ava', 'Mia', 'Ethan', 'Isabella', 'Zoe', 'Leo',
];
const LAST = [
  'Lovelace', 'Hopper', 'Turing', 'Torvalds', 'Hamilton', 'Johnson', 'Vaughan', 'Dijkstra', 'Liskov', 'Knuth',
  'Allen', 'Smith', 'Williams', 'Brown', 'Jones', 'Garcia', 'Miller', 'Davis', 'Rodriguez', 'Martinez',
  'Hernandez', 'Lopez', 'Gonzalez', 'Wilson', 'Anderson', 'Taylor', 'Moore', 'Jackson', 'Martin', 'Lee',
  'Perez', 'Thompson', 'White', 'Harris', 'Sanchez', 'Clark', 'Ramirez', 'Lewis', 'Robinson', 'Walker',
  'Young', 'King', 'Wright', 'Scott', 'Torres', 'Nguyen', 'Hill', 'Flores', 'Green', 'Adams',
  'Dubois', 'Lefebvre', 'Moreau', 'Laurent', 'Fernández', 'Romero', 'Rossi', 'Russo', 'Ferrari', 'Esposito',
  'Bianchi', 'Müller', 'Schmidt', 'Schneider', 'Fischer', 'Weber', 'Sato', 'Suzuki', 'Takahashi', 'Tanaka',
  'Watanabe', 'Santoso', 'Wijaya', 'Kusuma', 'Hassan', 'Ali', 'Okafor', 'Mensah', 'Patel', 'Sharma',
  'Singh', 'Wang', 'Li', 'Zhang', 'Chen', 'Ivanova', 'Petrov', 'Kowalski', 'Nowak', 'Jensen',
  "O'Brien", 'Murphy', 'Kelly', 'Walsh', 'Byrne', 'Andersson', 'Johansson', 'Larsen', 'Costa', 'Silva',
];
const DOMAINS = ['gmail.com', 'yahoo.com', 'outlook.com', 'hotmail.com', 'icloud.com', 'fastmail.com', 'proton.me', 'gmx.de', 'orange.fr', 'libero.it', 'yahoo.co.jp', 'example.org'];

/** E-mail local part from a name: ASCII letters only (`Léa` → `lea`). */
const ascii = (s: string): string => s.normalize('NFD').replace(/[^A-Za-z]/g, '').toLowerCase();

/** A seeded customer as the benchmark uses it to make requests. */
export interface SeededCustomer {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  type: 'member' | 'guest' | 'left';
  /** Ledger entries written for this customer. */
  entries: number;
}

/** What was seeded. */
export interface SeedResult {
  customers: SeededCustomer[];
  entries: number;
  seconds: number;
}

/** A copy of `list` in random order (Fisher–Yates on `random`). */
export function shuffled<T>(list: readonly T[], random: () => number): T[] {
  const out = [...list];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** Customer index → platform id (exact string, as every id in the app). */
export const customerId = (c: number): string => String(7_100_000_000_000 + c);

/**
 * Writes `customerCount` customers and exactly `entryCount` ledger entries for shop `shopId` into
 * the migrated SQLite file at `path` (the shop row and `programId`, an earning program document,
 * must exist). Throws when the stored balances do not equal the sums of the entries afterwards.
 */
export function seedCustomers(path: string, shopId: string, programId: string, customerCount: number, entryCount: number, seed = 20_261_125): SeedResult {
  const began = performance.now();
  const random = prng(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const sqlite = new SQLite(path);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = OFF');
  sqlite.pragma('cache_size = -262144');

  // Who is what, and how many entries each has.
  const customers: SeededCustomer[] = [];
  const used = new Set<string>();
  for (let c = 0; c < customerCount; c++) {
    const firstName = pick(FIRST);
    const lastName = pick(LAST);
    const r = random();
    const type = r < 0.75 ? 'member' : r < 0.9 ? 'guest' : 'left';
    let email = '';
    for (let attempt = 0; !email || used.has(email); attempt++) {
      const style = Math.floor(random() * 4);
      const local = style === 0 ? `${ascii(firstName)}.${ascii(lastName)}` : style === 1 ? `${ascii(firstName)[0]}${ascii(lastName)}` : style === 2 ? `${ascii(firstName)}_${ascii(lastName)}` : `${ascii(lastName)}.${ascii(firstName)}`;
      email = `${local}${attempt > 0 || random() < 0.6 ? Math.floor(random() * 10_000) : ''}@${pick(DOMAINS)}`;
    }
    used.add(email);
    customers.push({ id: customerId(c), email, firstName, lastName, type, entries: 0 });
  }
  const earners = customers.filter((c) => c.type !== 'guest');
  if (earners.length === 0 && entryCount > 0) throw new Error('seedCustomers: no member or left customer to give entries to');
  const order = shuffled(earners, random);
  const whales = Math.round(customerCount * 0.0005);
  const heavy = Math.round(customerCount * 0.01);
  order.forEach((c, i) => (c.entries = i < whales ? 4000 : i < whales + heavy ? 200 : 1 + Math.floor(random() * 13)));
  let total = earners.reduce((sum, c) => sum + c.entries, 0);
  const regulars = order.slice(whales + heavy);
  const adjustable = regulars.length > 0 ? regulars : order;
  while (total < entryCount) {
    pick(adjustable).entries++;
    total++;
  }
  const minimum = total - regulars.reduce((sum, c) => sum + c.entries - 1, 0);
  if (minimum > entryCount) throw new Error(`seedCustomers: ${entryCount} entries are fewer than the ${minimum} the skew needs (raise the entries or lower the customers)`);
  while (total > entryCount) {
    const c = pick(adjustable);
    if (c.entries > 1) {
      c.entries--;
      total--;
    }
  }

  const insertCustomer = sqlite.prepare(
    'insert into customers (shop_id, id, email, first_name, last_name, type, tier_id, points_balance, points_earned, phone, birthday, created_at, updated_at) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const insertEntry = sqlite.prepare(
    'insert into ledger_entries (id, shop_id, customer_id, type, points, program_id, program_kind, program_version, source_type, source_id, reverses_id, explanation, created_at, available_at) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const insertEvent = sqlite.prepare('insert into customer_events (id, shop_id, customer_id, kind, detail, actor, created_at) values (?, ?, ?, ?, ?, ?, ?)');
  const start = Date.parse('2024-11-01T00:00:00Z');
  const span = Date.parse('2026-11-20T00:00:00Z') - start;
  const pendingUntil = new Date(Date.now() + 14 * 86_400_000).toISOString();
  let orderNumber = 1000;

  const writeCustomer = (index: number): void => {
    const c = customers[index]!;
    const createdMs = start + Math.floor(random() * span * 0.5);
    const stepMs = c.entries > 0 ? Math.max(1000, Math.floor((start + span - createdMs) / (c.entries + 1))) : 0;
    let at = createdMs;
    let balance = 0;
    let earned = 0;
    for (let k = 0; k < c.entries; k++) {
      at += Math.max(1000, Math.floor(stepMs * (0.5 + random())));
      const created = new Date(Math.min(at, start + span)).toISOString();
      const r = random();
      const last = k === c.entries - 1;
      let type: string;
      let points: number;
      let sourceType: string;
      let sourceId: string;
      let explanation: string;
      let availableAt: string | null = null;
      let program: string | null = null;
      if (r < 0.1 && balance >= 100) {
        type = 'spend_point';
        points = -Math.min(balance, 100 * (1 + Math.floor(random() * 10)));
        sourceType = 'redemption';
        sourceId = crypto.randomUUID();
        explanation = JSON.stringify({ reward: 'Amount discount', code: `LOY-${sourceId.slice(0, 8).toUpperCase()}`, value: -points });
      } else if (r < 0.12) {
        points = random() < 0.7 ? 50 * (1 + Math.floor(random() * 10)) : -Math.min(balance, 50);
        type = points >= 0 ? 'earn_point' : 'minus_point';
        sourceType = 'admin_adjustment';
        sourceId = crypto.randomUUID();
        explanation = JSON.stringify({ adminNote: 'Goodwill after a late delivery', customerNote: 'Sorry for the wait', adjustTierPoints: false, actor: 'admin:1' });
      } else {
        const orderId = String(5_900_000_000_000 + ++orderNumber);
        points = 5 + Math.floor(random() * 496);
        const pending = last && random() < 0.05;
        type = pending ? 'pending_earn_point' : 'earn_point';
        if (pending) availableAt = pendingUntil;
        sourceType = 'order';
        sourceId = orderId;
        program = programId;
        explanation = JSON.stringify({
          orderId,
          orderName: `#${orderNumber}`,
          decision: {
            programId,
            programVersion: 1,
            programTitle: 'Points for every order',
            kind: 'earning.place_order',
            outcome: 'award',
            points,
            reason: null,
            message: `Points for every order awarded ${points} points`,
            eligibleLineIds: [`${orderId}1`],
            conditionChecks: [],
            working: { earnBy: 'order', base: points * 100, rateMoney: 1, earnPoint: 1, rounding: 'roundingDown', points },
            lineAllocations: [{ lineId: `${orderId}1`, quantity: 1, points }],
            autoRemovePoints: true,
          },
        });
      }
      balance += points;
      earned += earnedBy({ type, points });
      insertEntry.run(crypto.randomUUID(), shopId, c.id, type, points, program, program ? 'earning.place_order' : null, program ? 1 : null, sourceType, sourceId, null, explanation, created, availableAt);
    }
    const createdAt = new Date(createdMs).toISOString();
    const updatedAt = c.entries > 0 ? new Date(Math.min(at, start + span)).toISOString() : createdAt;
    const phone = random() < 0.4 ? `+1${String(2_000_000_000 + Math.floor(random() * 7_999_999_999))}` : null;
    const birthday = random() < 0.3 ? `${String(1 + Math.floor(random() * 12)).padStart(2, '0')}/${String(1 + Math.floor(random() * 28)).padStart(2, '0')}` : null;
    insertCustomer.run(shopId, c.id, c.email, c.firstName, c.lastName, c.type, null, balance, earned, phone, birthday, createdAt, updatedAt);
    if (c.type === 'left') insertEvent.run(crypto.randomUUID(), shopId, c.id, 'excluded', JSON.stringify({ from: 'member', to: 'left', note: '' }), 'admin:1', updatedAt);
  };
  const batch = sqlite.transaction((from: number, to: number) => {
    for (let i = from; i < to; i++) writeCustomer(i);
  });
  for (let i = 0; i < customerCount; i += 2000) batch(i, Math.min(customerCount, i + 2000));

  const wrong = sqlite
    .prepare(
      "select count(*) as n from customers c where c.shop_id = ? and (c.points_balance != coalesce((select sum(points) from ledger_entries l where l.shop_id = c.shop_id and l.customer_id = c.id), 0) or c.points_earned != coalesce((select sum(points) from ledger_entries l where l.shop_id = c.shop_id and l.customer_id = c.id and l.points > 0 and l.type <> 'pending_convert'), 0))",
    )
    .get(shopId) as { n: number };
  const { n: written } = sqlite.prepare('select count(*) as n from ledger_entries where shop_id = ?').get(shopId) as { n: number };
  sqlite.pragma('wal_checkpoint(TRUNCATE)');
  sqlite.close();
  if (wrong.n > 0) throw new Error(`seedCustomers: ${wrong.n} customers' points_balance or points_earned differs from their entries`);
  if (written !== entryCount) throw new Error(`seedCustomers: wrote ${written} entries, expected ${entryCount}`);
  return { customers, entries: written, seconds: (performance.now() - began) / 1000 };
}
