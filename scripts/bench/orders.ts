/**
 * Platform-shaped `orders/create` bodies for bench:ingest: every field the platform's REST order
 * webhook carries (addresses, price sets in shop and presentment money, tax lines, discount
 * allocations, line properties, fulfillment and payment fields), so a body is 11–23 KB minified,
 * about 17 KB on average, like real deliveries (5–30 KB). Deterministic for a seed.
 */

/** mulberry32: a small seeded PRNG, so every run sends the same orders. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const money = (amount: string, currency = 'USD') => ({ shop_money: { amount, currency_code: currency }, presentment_money: { amount, currency_code: currency } });

function address(random: () => number, first: string, last: string) {
  const n = Math.floor(random() * 9000) + 100;
  return {
    first_name: first,
    address1: `${n} Harbour Street`,
    phone: `+1 555-01${String(n).slice(0, 2)}`,
    city: 'Portland',
    zip: `97${String(n).padStart(3, '0')}`,
    province: 'Oregon',
    country: 'United States',
    last_name: last,
    address2: random() < 0.3 ? `Apt ${n % 40}` : null,
    company: random() < 0.1 ? 'Initech LLC' : null,
    latitude: Number((45.5 + random() / 10).toFixed(7)),
    longitude: Number((-122.6 + random() / 10).toFixed(7)),
    name: `${first} ${last}`,
    country_code: 'US',
    province_code: 'OR',
  };
}

/**
 * The body of order number `n` (ids unique per `n`), for `customerId` (a number from a pool, so
 * customers repeat across orders as they do in a shop).
 */
export function platformOrder(n: number, customerId: number, random: () => number): Record<string, unknown> {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const first = pick(['Ada', 'Grace', 'Alan', 'Edsger', 'Barbara', 'Ken']);
  const last = pick(['Lovelace', 'Hopper', 'Turing', 'Dijkstra', 'Liskov', 'Thompson']);
  const email = `${first}.${last}.${customerId}@example.com`.toLowerCase();
  const created = new Date(Date.UTC(2026, 10, 1) + Math.floor(random() * 20 * 86_400_000)).toISOString();
  const lineCount = 4 + Math.floor(random() * 8);
  let subtotal = 0;
  const lineItems = Array.from({ length: lineCount }, (_, i) => {
    const productId = pick([7001, 7002, 7003, 7004, 7005]);
    const price = (Math.floor(random() * 120) + 5) * 100 + pick([0, 50, 99]);
    const quantity = pick([1, 1, 1, 2, 3]);
    subtotal += price * quantity;
    const amount = (price / 100).toFixed(2);
    const tax = ((price * quantity * 0.08) / 100).toFixed(2);
    const discount = random() < 0.2 ? '5.00' : null;
    return {
      id: 13_000_000_000 + n * 10 + i,
      admin_graphql_api_id: `gid://shopify/LineItem/${13_000_000_000 + n * 10 + i}`,
      attributed_staffs: [],
      current_quantity: quantity,
      fulfillable_quantity: quantity,
      fulfillment_service: 'manual',
      fulfillment_status: null,
      gift_card: random() < 0.03,
      grams: Math.floor(random() * 3000),
      name: `${pick(['Snowboard', 'Board wax', 'Ski goggles', 'Helmet', 'Gloves'])} - ${pick(['Small', 'Medium', 'Large'])}`,
      price: amount,
      price_set: money(amount),
      product_exists: true,
      product_id: productId,
      properties: random() < 0.3 ? [{ name: 'Engraving', value: 'For the slopes' }] : [],
      quantity,
      requires_shipping: true,
      sku: pick(['SUB-1', 'SKU-BOARD-154', 'SKU-WAX-01', 'SKU-GOG-22']),
      taxable: true,
      title: pick(['Snowboard', 'Board wax', 'Ski goggles', 'Helmet', 'Gloves']),
      total_discount: '0.00',
      total_discount_set: money('0.00'),
      variant_id: 40_000_000_000 + productId * 10 + i,
      variant_inventory_management: 'shopify',
      variant_title: pick(['Small', 'Medium', 'Large']),
      vendor: pick(['Acme', 'Acme', 'Globex', 'Initech']),
      pre_tax_price: amount,
      pre_tax_price_set: money(amount),
      origin_location: { id: 3_000_000_000 + productId, country_code: 'US', province_code: 'OR', name: 'Portland warehouse', address1: '100 Dock Road', address2: '', city: 'Portland', zip: '97201' },
      tax_lines: [{ channel_liable: false, price: tax, price_set: money(tax), rate: 0.08, title: 'State tax' }],
      duties: [],
      discount_allocations: discount ? [{ amount: discount, amount_set: money(discount), discount_application_index: 0 }] : [],
      product_type: pick(['Snowboards', 'Snow gear', 'Accessories']),
      tags: pick(['', 'new', 'clearance', 'new, winter']),
    };
  });
  const subtotalText = (subtotal / 100).toFixed(2);
  const shipping = '6.00';
  const taxTotal = ((subtotal * 0.08) / 100).toFixed(2);
  const total = ((subtotal * 1.08 + 600) / 100).toFixed(2);
  const billing = address(random, first, last);
  const shippingAddress = random() < 0.8 ? billing : address(random, first, last);
  const id = 5_000_000_000_000 + n;
  return {
    id,
    admin_graphql_api_id: `gid://shopify/Order/${id}`,
    app_id: 580111,
    browser_ip: `203.0.113.${n % 250}`,
    buyer_accepts_marketing: random() < 0.5,
    cancel_reason: null,
    cancelled_at: null,
    cart_token: `c1-${(n * 7919).toString(16)}`,
    checkout_id: 30_000_000_000 + n,
    checkout_token: `${(n * 104_729).toString(16)}aa${n.toString(16)}`,
    client_details: { accept_language: 'en-US', browser_height: 900, browser_ip: `203.0.113.${n % 250}`, browser_width: 1440, session_hash: null, user_agent: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15' },
    closed_at: null,
    confirmation_number: `X${n.toString(36).toUpperCase()}Q`,
    confirmed: true,
    contact_email: email,
    created_at: created,
    currency: 'USD',
    current_subtotal_price: subtotalText,
    current_subtotal_price_set: money(subtotalText),
    current_total_discounts: '0.00',
    current_total_discounts_set: money('0.00'),
    current_total_price: total,
    current_total_price_set: money(total),
    current_total_tax: taxTotal,
    current_total_tax_set: money(taxTotal),
    customer_locale: 'en-US',
    discount_codes: random() < 0.2 ? [{ code: pick(['LAUNCH', 'SPRING10']), amount: '5.00', type: 'fixed_amount' }] : [],
    email,
    estimated_taxes: false,
    financial_status: 'paid',
    fulfillment_status: null,
    landing_site: '/products/snowboard?utm_source=newsletter&utm_medium=email',
    name: `#${1000 + n}`,
    note: random() < 0.1 ? 'Please leave at the door' : null,
    note_attributes: [{ name: 'gift_wrap', value: random() < 0.2 ? 'yes' : 'no' }, { name: 'delivery_window', value: 'weekday' }],
    number: n,
    order_number: 1000 + n,
    order_status_url: `https://bench-shop.myshopify.com/70000000/orders/${(n * 31).toString(16)}/authenticate?key=${(n * 7).toString(16)}`,
    payment_gateway_names: ['shopify_payments'],
    phone: null,
    presentment_currency: 'USD',
    processed_at: created,
    referring_site: 'https://www.example.net/',
    source_name: pick(['web', 'web', 'web', 'pos']),
    subtotal_price: subtotalText,
    subtotal_price_set: money(subtotalText),
    tags: pick(['', 'spring', 'wholesale']),
    tax_exempt: false,
    tax_lines: [{ price: taxTotal, rate: 0.08, title: 'State tax', price_set: money(taxTotal), channel_liable: false }],
    taxes_included: false,
    test: false,
    token: `${(n * 15_485_863).toString(16)}${n.toString(16)}`,
    total_discounts: '0.00',
    total_discounts_set: money('0.00'),
    total_line_items_price: subtotalText,
    total_line_items_price_set: money(subtotalText),
    total_outstanding: '0.00',
    total_price: total,
    total_price_set: money(total),
    total_shipping_price_set: money(shipping),
    total_tax: taxTotal,
    total_tax_set: money(taxTotal),
    total_tip_received: '0.00',
    total_weight: 1200,
    updated_at: created,
    billing_address: billing,
    customer: {
      id: 7_000_000_000_000 + customerId,
      email,
      created_at: '2025-03-01T10:00:00-05:00',
      updated_at: created,
      first_name: first,
      last_name: last,
      state: 'enabled',
      note: null,
      verified_email: true,
      multipass_identifier: null,
      tax_exempt: false,
      phone: null,
      currency: 'USD',
      tax_exemptions: [],
      admin_graphql_api_id: `gid://shopify/Customer/${7_000_000_000_000 + customerId}`,
      tags: pick(['', 'vip', 'gold', 'staff']),
      orders_count: Math.floor(random() * 15),
      total_spent: `${Math.floor(random() * 2000)}.00`,
      default_address: { id: 9_000_000_000 + customerId, customer_id: 7_000_000_000_000 + customerId, ...billing, default: true },
    },
    discount_applications: [],
    fulfillments: [],
    line_items: lineItems,
    payment_terms: null,
    refunds: [],
    shipping_address: shippingAddress,
    shipping_lines: [
      {
        id: 4_000_000_000 + n,
        carrier_identifier: null,
        code: 'Standard',
        discounted_price: shipping,
        discounted_price_set: money(shipping),
        phone: null,
        price: shipping,
        price_set: money(shipping),
        requested_fulfillment_service_id: null,
        source: 'shopify',
        title: 'Standard shipping',
        tax_lines: [],
        discount_allocations: [],
      },
    ],
  };
}
