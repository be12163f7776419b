/**
 * Wallet passes (CU10; spec 002 §2 "Generate pass wallet", "Wallet pass designer", §3 "Wallet
 * pass"): the design is a singleton document validated with field paths; generating a customer's
 * pass fills every value field from the customer; without Google Wallet the local adapter answers
 * an SVG card, with it a "Save to Google Wallet" link whose JWT is signed RS256 by the service
 * account key; unknown customers and undesigned passes are refused clearly.
 */
import { exportPKCS8, exportSPKI, generateKeyPair, importSPKI, jwtVerify } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { WALLET_VALUE_FIELDS } from '../../engine/wallet-pass';
import { WRITE_ONLY_MASK } from '../../engine/write-only';
import { insertDocument } from '../../server/store/documents';
import { makeApp, repoRegistry, SHOP } from '../support/app';

const CUSTOMER = '7300000000000000001';
const JOINED = '2024-03-04T15:00:00.000Z';

type Cell = { label: string; field: string; value: string };
type Answer = { pass: { header: { title: string; logo: string | null }; rows: { left: Cell; right: Cell }[] }; provider: string; saveUrl: string | null; file: { filename: string; mediaType: string; base64: string } | null };

/** An app with one customer: Ana Diaz, 1,250 points, VIP tier Gold, referral code ANA2024, joined 2024-03-04. */
async function shopWithCustomer() {
  const t = await makeApp({ now: () => new Date('2025-06-01T12:00:00.000Z') });
  const tier = await insertDocument(t.db, SHOP, 'tier.tier', 1, { name: 'Gold' }, JOINED);
  await t.db
    .insertInto('customers')
    .values({ shop_id: SHOP, id: CUSTOMER, email: 'ana@example.com', first_name: 'Ana', last_name: 'Diaz', phone: '+15551234567', birthday: '07/21', tier_id: tier.id, created_at: JOINED, updated_at: JOINED })
    .execute();
  await t.db.insertInto('referral_links').values({ shop_id: SHOP, customer_id: CUSTOMER, code: 'ANA2024', created_at: JOINED }).execute();
  expect((await t.call('POST', `/api/customers/${CUSTOMER}/adjust`, { points: 1250 })).status).toBe(200);
  const design = (rows: unknown[], header: Record<string, unknown> = { title: 'Acme Rewards' }) => t.call('POST', '/api/kinds/membership.wallet_pass/docs', { data: { header, rows } });
  const generate = async (id = CUSTOMER) => t.call('POST', `/api/customers/${id}/wallet-pass`);
  return { ...t, design, generate };
}

const row = (left: string, right: string) => ({ left: { label: left.toUpperCase(), value: left }, right: { label: right.toUpperCase(), value: right } });

describe('the wallet pass design', () => {
  it('offers exactly the value fields the pass filler knows', () => {
    const schema = repoRegistry().get('membership.wallet_pass')!.schema as { properties: { rows: { items: { properties: { left: { properties: { value: { oneOf: { const: string }[] } } } } } } } };
    expect(schema.properties.rows.items.properties.left.properties.value.oneOf.map((o) => o.const)).toEqual([...WALLET_VALUE_FIELDS]);
  });

  it('refuses an unknown value field, a fifth row and a long title with their field paths', async () => {
    const { design } = await shopWithCustomer();
    const res = await design([row('name', 'points'), row('name', 'points'), row('name', 'points'), row('name', 'points'), { left: { label: 'x', value: 'password' }, right: { label: 'y', value: 'points' } }], { title: 'x'.repeat(41) });
    expect(res.status).toBe(422);
    const { error } = (await res.json()) as { error: { details: { path: string; message: string }[] } };
    expect(error.details).toEqual(
      expect.arrayContaining([
        { path: '/rows', message: 'Select at most 4' },
        { path: '/rows/4/left/value', message: 'Value invalid' },
        { path: '/header/title', message: 'Must be at most 40 characters' },
      ]),
    );
  });

  it('is one document per shop', async () => {
    const { design } = await shopWithCustomer();
    expect((await design([row('name', 'points')])).status).toBe(201);
    expect((await design([row('name', 'points')])).status).toBe(409);
  });
});

describe('POST /api/customers/:id/wallet-pass', () => {
  it('answers 404 for a customer the shop does not have', async () => {
    const { design, generate } = await shopWithCustomer();
    await design([row('name', 'points')]);
    const res = await generate('999');
    expect(res.status).toBe(404);
  });

  it('answers 409 with a clear message before the pass is designed', async () => {
    const { generate } = await shopWithCustomer();
    const res = await generate();
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({ error: { code: 'wallet_pass_not_designed', message: 'Design the wallet pass first (Customers › Wallet pass)' } });
  });

  it('fills each value field from the customer', async () => {
    // Twelve fields and `none` need two designs of at most 4 rows (2 fields a row).
    const values: Record<string, string> = {};
    for (const chunk of [WALLET_VALUE_FIELDS.slice(0, 8), WALLET_VALUE_FIELDS.slice(8)]) {
      const { design, generate } = await shopWithCustomer();
      const rows = [];
      for (let i = 0; i < chunk.length; i += 2) rows.push(row(chunk[i]!, chunk[i + 1] ?? 'none'));
      expect((await design(rows)).status).toBe(201);
      const res = await generate();
      expect(res.status).toBe(200);
      for (const r of ((await res.json()) as { data: Answer }).data.pass.rows) for (const cell of [r.left, r.right]) values[cell.field] = cell.value;
    }
    expect(values).toEqual({
      name: 'Ana Diaz',
      first_name: 'Ana',
      email: 'ana@example.com',
      phone: '+15551234567',
      points: '1,250',
      pending_points: '0',
      lifetime_points: '1,250',
      tier: 'Gold',
      member_since: 'Mar 4, 2024',
      birthday: 'Jul 21',
      referral_code: 'ANA2024',
      customer_id: CUSTOMER,
      none: '',
    });
  });

  it('keeps the labels, the title and the order of the rows', async () => {
    const { design, generate } = await shopWithCustomer();
    await design([row('tier', 'points'), row('referral_code', 'none')]);
    const { data } = (await (await generate()).json()) as { data: Answer };
    expect(data.pass.header).toEqual({ title: 'Acme Rewards', logo: null });
    expect(data.pass.rows.map((r) => [r.left.label, r.left.value, r.right.label, r.right.value])).toEqual([
      ['TIER', 'Gold', 'POINTS', '1,250'],
      ['REFERRAL_CODE', 'ANA2024', 'NONE', ''],
    ]);
  });

  it('answers an SVG card to download when Google Wallet is not connected', async () => {
    const { design, generate } = await shopWithCustomer();
    await design([row('name', 'points')]);
    const res = await generate();
    expect(res.status).toBe(200);
    const { data } = (await res.json()) as { data: Answer };
    expect(data.provider).toBe('local');
    expect(data.saveUrl).toBeNull();
    expect(data.file).toMatchObject({ filename: `wallet-pass-${CUSTOMER}.svg`, mediaType: 'image/svg+xml' });
    const svg = Buffer.from(data.file!.base64, 'base64').toString('utf8');
    expect(svg).toContain('Acme Rewards');
    expect(svg).toContain('Ana Diaz');
    expect(svg).toContain('1,250');
  });
});

describe('Google Wallet', () => {
  let privatePem = '';
  let publicPem = '';
  beforeAll(async () => {
    const pair = await generateKeyPair('RS256', { extractable: true });
    privatePem = await exportPKCS8(pair.privateKey);
    publicPem = await exportSPKI(pair.publicKey);
  });
  const keyFile = () => JSON.stringify({ type: 'service_account', client_email: 'wallet@acme.iam.gserviceaccount.com', private_key_id: 'key-1', private_key: privatePem });

  it('never answers the saved key, and reports the connection', async () => {
    const { call } = await shopWithCustomer();
    expect(await (await call('GET', '/api/wallet/google')).json()).toEqual({ data: { state: 'not_connected', issuerId: null, serviceAccountEmail: null } });
    const saved = await call('POST', '/api/kinds/integration.google_wallet/docs', { data: { appKey: '3388000000012345678', secretKey: keyFile() } });
    expect(saved.status).toBe(201);
    const text = await saved.text();
    expect(text).not.toContain('PRIVATE KEY');
    expect((JSON.parse(text) as { data: { data: { secretKey: string } } }).data.data.secretKey).toBe(WRITE_ONLY_MASK);
    expect(await (await call('GET', '/api/wallet/google')).json()).toEqual({ data: { state: 'connected', issuerId: '3388000000012345678', serviceAccountEmail: 'wallet@acme.iam.gserviceaccount.com' } });
  });

  it('builds a Save to Google Wallet link whose JWT the service account signed (RS256) with the loyalty object', async () => {
    const { call, design, generate } = await shopWithCustomer();
    await design([row('tier', 'points'), row('referral_code', 'none')], { title: 'Acme Rewards', logo: 'https://cdn.example.com/acme-30.png' });
    await call('POST', '/api/kinds/integration.google_wallet/docs', { data: { appKey: '3388000000012345678', secretKey: keyFile() } });
    const res = await generate();
    expect(res.status).toBe(200);
    const { data } = (await res.json()) as { data: Answer };
    expect(data.provider).toBe('google');
    expect(data.saveUrl).toMatch(/^https:\/\/pay\.google\.com\/gp\/v\/save\/[\w-]+\.[\w-]+\.[\w-]+$/);
    const jwt = data.saveUrl!.slice('https://pay.google.com/gp/v/save/'.length);
    const { payload, protectedHeader } = await jwtVerify(jwt, await importSPKI(publicPem, 'RS256'), { issuer: 'wallet@acme.iam.gserviceaccount.com', audience: 'google' });
    expect(protectedHeader).toMatchObject({ alg: 'RS256', kid: 'key-1' });
    expect(payload).toMatchObject({ typ: 'savetowallet', iat: Date.parse('2025-06-01T12:00:00.000Z') / 1000 });
    const classId = `3388000000012345678.loyalty_${SHOP}`;
    expect(payload.payload).toEqual({
      loyaltyClasses: [{ id: classId, issuerName: expect.any(String), programName: 'Acme Rewards', programLogo: { sourceUri: { uri: 'https://cdn.example.com/acme-30.png' } }, hexBackgroundColor: '#1f2a44', reviewStatus: 'UNDER_REVIEW' }],
      loyaltyObjects: [
        {
          id: `3388000000012345678.${SHOP}_${CUSTOMER}`,
          classId,
          state: 'ACTIVE',
          accountId: CUSTOMER,
          accountName: 'Ana Diaz',
          loyaltyPoints: { label: 'Points', balance: { int: 1250 } },
          textModulesData: [
            { id: 'row1_left', header: 'TIER', body: 'Gold' },
            { id: 'row1_right', header: 'POINTS', body: '1,250' },
            { id: 'row2_left', header: 'REFERRAL_CODE', body: 'ANA2024' },
          ],
        },
      ],
    });
  });

  it('refuses to build a link without a logo, which Google requires', async () => {
    const { call, design, generate } = await shopWithCustomer();
    await design([row('name', 'points')]);
    await call('POST', '/api/kinds/integration.google_wallet/docs', { data: { appKey: '3388000000012345678', secretKey: keyFile() } });
    const res = await generate();
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({ error: { code: 'wallet_pass_logo_missing' } });
  });

  it('reports a saved key that is not a service account key, and refuses to sign with it', async () => {
    const { call, design, generate } = await shopWithCustomer();
    await design([row('name', 'points')], { title: 'Acme', logo: 'https://cdn.example.com/acme-30.png' });
    await call('POST', '/api/kinds/integration.google_wallet/docs', { data: { appKey: '3388000000012345678', secretKey: 'not json' } });
    expect(await (await call('GET', '/api/wallet/google')).json()).toMatchObject({ data: { state: 'invalid_key' } });
    const res = await generate();
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({ error: { code: 'google_wallet_key_invalid' } });
  });
});

describe('POST /api/customers/wallet-passes (the customers list action "Generate pass wallet")', () => {
  it('makes each listed customer the pass the profile would, in order, and names the ids the shop does not have', async () => {
    const { design, call, generate } = await shopWithCustomer();
    await design([row('name', 'points')]);
    const res = await call('POST', '/api/customers/wallet-passes', { ids: ['999', CUSTOMER, CUSTOMER] });
    expect(res.status).toBe(200);
    const { data } = (await res.json()) as { data: { customerId: string; error: string | null; answer: Answer | null }[] };
    // Repeated ids are made once; the unknown one is named, the rest still made.
    expect(data.map((d) => [d.customerId, d.error])).toEqual([
      ['999', 'not_found'],
      [CUSTOMER, null],
    ]);
    const single = (await (await generate()).json()) as { data: Answer };
    expect(data[1]!.answer).toEqual(single.data);
    expect(data[1]!.answer!.pass.rows[0]!.left.value).toBe('Ana Diaz');
  });

  it('refuses an empty, oversized or malformed list at /ids and answers 409 before the pass is designed', async () => {
    const { design, call } = await shopWithCustomer();
    const refused = async (body: unknown, path: string) => {
      const res = await call('POST', '/api/customers/wallet-passes', body);
      expect(res.status).toBe(422);
      expect(((await res.json()) as { error: { details: { path: string }[] } }).error.details[0]!.path).toBe(path);
    };
    await refused({ ids: [] }, '/ids');
    await refused({ ids: Array.from({ length: 101 }, (_, i) => String(i)) }, '/ids');
    await refused({ ids: [CUSTOMER, 5] }, '/ids/1');
    await refused({}, '/ids');
    const early = await call('POST', '/api/customers/wallet-passes', { ids: [CUSTOMER] });
    expect(early.status).toBe(409);
    expect(((await early.json()) as { error: { code: string } }).error.code).toBe('wallet_pass_not_designed');
    await design([row('name', 'points')]);
    expect((await call('POST', '/api/customers/wallet-passes', { ids: [CUSTOMER] })).status).toBe(200);
  });
});
