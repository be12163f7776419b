import { describe, expect, it } from 'vitest';
import { evaluateOrder } from '../../engine/earning';
import { normalizeOrder } from '../../engine/order';
import { orderBody, placeOrderDoc } from '../support/factories';

const ctx = { timeZone: 'America/New_York' };
const order = (o: Record<string, unknown> = {}, lines?: Parameters<typeof orderBody>[1]) => normalizeOrder(orderBody(o, lines));

describe('place-order conditions', () => {
  it('explains a failed order condition with the field, operator and the value seen', async () => {
    const program = placeOrderDoc({ title: 'Big spenders', statusUseCondition: true, conditions: [{ field: 'order.total_price', typeMatch: 'greater_than', content: '500' }] });
    const result = await evaluateOrder([program], order(), ctx);
    const decision = result.decisions[0]!;
    expect(decision.outcome).toBe('deny');
    expect(decision.reason).toBe('conditions_not_met');
    expect(decision.message).toContain('Big spenders');
    expect(decision.message).toContain('order.total_price greater_than "500"');
    expect(decision.conditionChecks[0]!.conditions[0]).toMatchObject({ field: 'order.total_price', factValue: 110, result: false });
  });

  it('compares numbers as numbers, not text ("9" < "10")', async () => {
    const program = placeOrderDoc({ statusUseCondition: true, conditions: [{ field: 'customer.orders_count', typeMatch: 'greater_than', content: '10' }] });
    const result = await evaluateOrder([program], order({ customer: { id: '1', orders_count: 9 } }), ctx);
    expect(result.totalPoints).toBe(0);
  });

  it('counts only the lines that meet product conditions', async () => {
    const program = placeOrderDoc({ earnPoint: 1, rateMoney: 1, statusUseCondition: true, conditions: [{ field: 'product.vendor', typeMatch: 'equal', content: 'acme' }] });
    const result = await evaluateOrder([program], order({}, [{ vendor: 'Acme', price: '30.00' }, { vendor: 'Other', price: '70.00' }]), ctx);
    expect(result.totalPoints).toBe(30);
    expect(result.decisions[0]!.conditionChecks.map((c) => c.passed)).toEqual([true, false]);
  });

  it('requires every product to match when typeProductMatch is all', async () => {
    const program = placeOrderDoc({ typeProductMatch: 'all', statusUseCondition: true, conditions: [{ field: 'product.vendor', typeMatch: 'equal', content: 'acme' }] });
    const result = await evaluateOrder([program], order({}, [{ vendor: 'Acme' }, { vendor: 'Other' }]), ctx);
    expect(result.decisions[0]!.reason).toBe('conditions_not_met');
  });

  it('awards when any condition holds with typeCondition any', async () => {
    const program = placeOrderDoc({
      typeCondition: 'any',
      statusUseCondition: true,
      conditions: [
        { field: 'order.tag', typeMatch: 'includes', content: 'wholesale, b2b' },
        { field: 'customer.tag', typeMatch: 'equal', content: 'VIP' },
      ],
    });
    const result = await evaluateOrder([program], order(), ctx);
    expect(result.totalPoints).toBe(10);
  });
});

describe('program scope', () => {
  it('does not award before 00:00:00 of the start date in the store timezone', async () => {
    const program = placeOrderDoc({ startDate: '2026-06-16' });
    // 23:59 on June 15 in New York is already June 16 in UTC.
    const late = await evaluateOrder([program], order({ created_at: '2026-06-16T03:59:00Z' }), ctx);
    expect(late.decisions[0]!.reason).toBe('not_started');
    const midnight = await evaluateOrder([program], order({ created_at: '2026-06-16T04:00:00Z' }), ctx);
    expect(midnight.decisions[0]!.outcome).toBe('award');
  });

  it('excludes gift cards when excludeGiftCard is on', async () => {
    const program = placeOrderDoc({ earnPoint: 1, rateMoney: 1, excludeGiftCard: true });
    const result = await evaluateOrder([program], order({}, [{ price: '50.00', gift_card: true }, { price: '20.00' }]), ctx);
    expect(result.totalPoints).toBe(20);
  });

  it('skips test, cancelled and voided orders with the reason', async () => {
    const program = placeOrderDoc();
    expect((await evaluateOrder([program], order({ test: true }), ctx)).orderSkipped).toBe('test_order');
    expect((await evaluateOrder([program], order({ cancelled_at: '2026-06-15T13:00:00Z' }), ctx)).orderSkipped).toBe('cancelled_order');
    expect((await evaluateOrder([program], order({ financial_status: 'voided' }), ctx)).orderSkipped).toBe('voided_order');
  });

  it('runs programs by priority and stops after an awarding program with stopProcessing', async () => {
    const low = placeOrderDoc({ title: 'Low', priorityPlaceOrder: 50 });
    const top = placeOrderDoc({ title: 'Top', priorityPlaceOrder: 1, stopProcessing: true });
    const result = await evaluateOrder([low, top], order(), ctx);
    expect(result.decisions.map((d) => [d.programTitle, d.outcome])).toEqual([
      ['Top', 'award'],
      ['Low', 'deny'],
    ]);
    expect(result.decisions[1]!.reason).toBe('stopped_by_priority');
  });

  it('limits a program to one-time purchases when appliedPlaceOrderTo says so', async () => {
    const program = placeOrderDoc({ earnPoint: 1, rateMoney: 1, appliedPlaceOrderTo: 'one_time_purchase' });
    const result = await evaluateOrder([program], order({}, [{ price: '10.00', selling_plan_allocation: { selling_plan: { id: 1 } } }, { price: '5.00' }]), ctx);
    expect(result.totalPoints).toBe(5);
  });
});

describe('malformed orders', () => {
  it('judges two lines that share an id each on its own', async () => {
    const program = placeOrderDoc({ earnBy: 'price', earnPoint: 1, rateMoney: 1, statusUseCondition: true, conditions: [{ field: 'product.vendor', typeMatch: 'equal', content: 'acme' }] });
    const result = await evaluateOrder([program], order({}, [{ id: '1', vendor: 'Acme', price: '30.00' }, { id: '1', vendor: 'Other', price: '70.00' }]), ctx);
    expect(result.totalPoints).toBe(30);
  });
});

describe('evaluations in parallel', () => {
  it('decide each order exactly as one at a time while they share the programs’ compiled rules', async () => {
    const programs = [
      placeOrderDoc({ title: 'Acme lines', earnPoint: 2, rateMoney: 1, statusUseCondition: true, conditions: [{ field: 'product.vendor', typeMatch: 'equal', content: 'acme' }] }, { id: 'p1' }),
      placeOrderDoc({ title: 'Big orders', earnPoint: 1, rateMoney: 1, statusUseCondition: true, conditions: [{ field: 'order.total_price', typeMatch: 'greater_than', content: '150' }] }, { id: 'p2' }),
      placeOrderDoc({ title: 'Loyal customers', earnPoint: 5, rateMoney: 10, statusUseCondition: true, conditions: [{ field: 'customer.orders_count', typeMatch: 'greater_than', content: '4' }] }, { id: 'p3' }),
    ];
    const orders = Array.from({ length: 24 }, (_, i) =>
      order({ total_price: String(60 + i * 10), customer: { id: String(100 + i), orders_count: i % 9 } }, [
        { vendor: i % 2 ? 'Acme' : 'Other', price: `${20 + i}.00` },
        { vendor: i % 3 ? 'Other' : 'Acme', price: `${40 + i}.50`, quantity: 1 + (i % 3) },
      ]),
    );
    const oneByOne = [];
    for (const o of orders) oneByOne.push(await evaluateOrder(programs, o, ctx));
    const together = await Promise.all(orders.map((o) => evaluateOrder(programs, o, ctx)));
    expect(together).toEqual(oneByOne);
    // The orders differ, so equal answers are not all the same answer.
    expect(new Set(oneByOne.map((e) => e.totalPoints)).size).toBeGreaterThan(5);
  });
});
