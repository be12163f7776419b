/**
 * Runs every QA rule fixture under fixtures/rules (one test each), and proves a wrong expectation
 * fails: a fixture is only worth something if it can catch a mistake.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listFixtureFiles, readFixture, registryPreparer, registryValidator } from '../../engine/fixture-files';
import { FixtureFormatError, runFixture } from '../../engine/fixtures';
import { repoRegistry, ROOT } from '../support/app';

const prepare = registryPreparer(repoRegistry());
const validate = registryValidator(repoRegistry());
const files = listFixtureFiles(join(ROOT, 'fixtures', 'rules'), ROOT);

describe('rule fixtures', () => {
  it.each(files)('%s', async (file) => {
    const result = await runFixture(readFixture(join(ROOT, file)), { prepare, validate });
    expect(result.comparisons.filter((c) => !c.pass)).toEqual([]);
  });
});

describe('the fixture runner', () => {
  it('fails a fixture whose expected points are wrong', async () => {
    const fixture = readFixture(join(ROOT, 'fixtures/rules/earning/place-order/default-program-rounds-down.json')) as { expect: { totalPoints: number } };
    fixture.expect.totalPoints += 1;
    const result = await runFixture(fixture, { prepare });
    expect(result.pass).toBe(false);
    expect(result.comparisons.find((c) => c.what === 'totalPoints')).toMatchObject({ expected: 13, actual: 12, pass: false });
  });

  it('fails a limit fixture that expects no violation where there is one', async () => {
    const fixture = readFixture(join(ROOT, 'fixtures/rules/limits/eleventh-place-order-program.json')) as { expect: { violations: unknown[] } };
    fixture.expect.violations = [];
    expect((await runFixture(fixture, { prepare })).pass).toBe(false);
  });

  it('reports a program that breaks its template with the field path', async () => {
    const fixture = {
      check: 'order',
      spec: 'x',
      description: 'x',
      facts: { programs: [{ kind: 'earning.place_order', data: { title: 'P', rateMoney: 0 } }], order: { id: 1, line_items: [] } },
      expect: { totalPoints: 0 },
    };
    await expect(runFixture(fixture, { prepare })).rejects.toThrow(FixtureFormatError);
    await expect(runFixture(fixture, { prepare })).rejects.toThrow('/facts/programs/0/data/rateMoney');
  });

  it('refuses a fixture without the spec line it checks', async () => {
    await expect(runFixture({ check: 'order', description: 'x', facts: { programs: [] }, expect: {} })).rejects.toThrow('/spec');
  });
});

describe('the fixture format (fixtures/fixture-format.schema.json)', () => {
  const orderFixture = () => ({
    check: 'order',
    spec: 'spec 001 §9',
    description: 'a $100 order earns 10 points',
    facts: {
      shop: { timezone: 'UTC', currency: 'USD' },
      programs: [{ kind: 'earning.place_order', data: { title: 'Place an order' } }],
      order: { id: 1, currency: 'USD', line_items: [{ id: 1, price: '100.00', quantity: 1 }], customer: { id: 2 } },
    },
    expect: { totalPoints: 10, orderSkipped: null } as Record<string, unknown>,
  });
  const formatErrorOf = async (fixture: unknown): Promise<string> => {
    try {
      await runFixture(fixture, { prepare });
    } catch (e) {
      if (e instanceof FixtureFormatError) return e.message;
      throw e;
    }
    throw new Error('the fixture ran');
  };

  it('runs a well-formed fixture', async () => {
    expect((await runFixture(orderFixture(), { prepare })).pass).toBe(true);
  });

  it('fails a misspelt expect key with its pointer instead of ignoring it', async () => {
    const fixture = orderFixture();
    fixture.expect = { totalPoints: 0, orderSkiped: 'test_order' };
    expect(await formatErrorOf(fixture)).toMatch(/^\/expect\/orderSkiped: unknown key/);
  });

  it('fails a misspelt facts key deep in the shop', async () => {
    const fixture = orderFixture();
    fixture.facts.shop = { timezon: 'Europe/Paris' } as never;
    expect(await formatErrorOf(fixture)).toMatch(/^\/facts\/shop\/timezon: unknown key/);
  });

  it('fails facts.ordr with a pointer, not "Cannot read properties of undefined"', async () => {
    const fixture = orderFixture() as unknown as { facts: Record<string, unknown> };
    fixture.facts.ordr = fixture.facts.order;
    delete fixture.facts.order;
    expect(await formatErrorOf(fixture)).toMatch(/^\/facts\/(order: is required|ordr: unknown key)/);
  });

  it('makes a limit fixture state its violations: none is not the default', async () => {
    const fixture = {
      check: 'limit',
      spec: 'spec 001 §4',
      description: 'a first streak is allowed',
      facts: { now: '2026-06-15T12:00:00Z', change: { kind: 'earning.place_order', data: { title: 'P' } } },
      expect: { violation: [] },
    };
    expect(await formatErrorOf(fixture)).toMatch(/^\/expect\/(violations: is required|violation: unknown key)/);
  });
});
