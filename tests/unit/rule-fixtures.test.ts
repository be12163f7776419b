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
