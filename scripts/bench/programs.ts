/**
 * The 10 place-order programs both benchmarks run (scripts/bench.ts and scripts/bench-ingest.ts):
 * rule data as a merchant stores it, 3–5 conditions each, over order, line, customer and
 * collection facts, with date windows, a paused program and a stop-processing program.
 */
import type { JsonObject } from '../../engine/types';


const cond = (field: string, typeMatch: string, content = '') => ({ field, typeMatch, content });

export const PROGRAM_DATA: JsonObject[] = [
  {
    title: 'Base: 1 point per $1',
    earnBy: 'price', earnPoint: 1, rateMoney: 1, roundingMethod: 'roundingDown', priorityPlaceOrder: 10, excludeGiftCard: true,
    conditions: [cond('order.total_price', 'greater_than_or_equal_to', '10'), cond('order.source_name', 'not_equal', 'shopify_draft_order'), cond('customer.email', 'not_empty')],
  },
  {
    title: 'VIP: 2 points per $10',
    earnBy: 'order', earnPoint: 2, rateMoney: 10, roundingMethod: 'roundingNearest', priorityPlaceOrder: 20, earnPointShippingFee: true, typeCondition: 'any',
    conditions: [cond('customer.tag', 'includes', 'vip, gold'), cond('customer.total_spent', 'greater_than', '1000'), cond('customer.orders_count', 'greater_than_or_equal_to', '10')],
  },
  {
    title: 'Acme: 5 points per $20',
    earnBy: 'price', earnPoint: 5, rateMoney: 20, roundingMethod: 'roundingUp', priorityPlaceOrder: 30,
    conditions: [cond('product.vendor', 'equal', 'Acme'), cond('product.price', 'greater_than', '25'), cond('product.tag', 'not_contains', 'clearance')],
  },
  {
    title: 'March snow: 1 point per 2 items',
    earnBy: 'quantity', earnPoint: 1, rateItem: 2, roundingMethod: 'roundingNearest', priorityPlaceOrder: 40, startDate: '2026-03-01', endDate: '2026-03-31',
    conditions: [cond('order.tag', 'contains', 'spring'), cond('order.item_count', 'greater_than_or_equal_to', '2'), cond('order.discount_code', 'empty'), cond('product.type', 'start', 'snow')],
  },
  {
    title: 'POS: 25 points per order',
    earnBy: 'fixed_order', earnPoint: 25, roundingMethod: 'roundingDown', priorityPlaceOrder: 50, excludeOSOrderProducts: true,
    conditions: [cond('order.subtotal_price', 'greater_than', '50'), cond('customer.tag', 'not_includes', 'staff, test'), cond('order.total_price', 'less_than', '500')],
  },
  {
    title: 'Subscriptions: 3 points per $5',
    earnBy: 'order', earnPoint: 3, rateMoney: 5, roundingMethod: 'roundingDown', priorityPlaceOrder: 60, appliedPlaceOrderTo: 'subscription_purchase', typeProductMatch: 'all',
    conditions: [cond('product.sku', 'start', 'SUB-'), cond('product.price', 'less_than_or_equal_to', '100'), cond('collection.id', 'includes', '1001, 1002'), cond('customer.email', 'end', '@example.com')],
  },
  {
    title: 'Paused double points',
    status: false, earnBy: 'order', earnPoint: 2, rateMoney: 1, roundingMethod: 'roundingDown', priorityPlaceOrder: 70,
    conditions: [cond('order.total_price', 'greater_than', '0'), cond('order.item_count', 'greater_than', '0'), cond('customer.orders_count', 'greater_than_or_equal_to', '0')],
  },
  {
    title: 'April launch: 100 points',
    earnBy: 'fixed_order', earnPoint: 100, roundingMethod: 'roundingDown', priorityPlaceOrder: 5, startDate: '2026-04-01', stopProcessing: true,
    conditions: [cond('order.discount_code', 'equal', 'LAUNCH'), cond('order.total_price', 'greater_than', '20'), cond('customer.orders_count', 'less_than', '2')],
  },
  {
    title: 'Boards online: 2 points per $1',
    earnBy: 'price', earnPoint: 2, rateMoney: 1, roundingMethod: 'roundingDown', priorityPlaceOrder: 80, excludePOSOrderProducts: true, includeProducts: ['7001', '7002', '7003'],
    conditions: [cond('product.title', 'contains', 'board'), cond('product.id', 'not_equal', '7003'), cond('order.item_count', 'less_than', '10')],
  },
  {
    title: 'Winter (ended)',
    earnBy: 'order', earnPoint: 1, rateMoney: 2, roundingMethod: 'roundingUp', priorityPlaceOrder: 90, endDate: '2026-03-01',
    conditions: [cond('order.tag', 'not_empty'), cond('order.total_price', 'less_than_or_equal_to', '300'), cond('customer.total_spent', 'greater_than_or_equal_to', '0'), cond('order.source_name', 'includes', 'web, pos'), cond('customer.orders_count', 'greater_than', '0')],
  },
];

