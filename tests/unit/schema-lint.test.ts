import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lintSchemas } from '../../engine/schema-lint';
import { ROOT } from '../support/app';

import * as form from '../../ui/form/widgets';

/** The names the UI really registers, as `npm run schemas:check` uses them. */
const UI = { widgets: form.widgetNames, fields: (form as { fieldNames?: readonly string[] }).fieldNames ?? [] };

/** A copy of schemas/ where `edit` changed one file. */
function brokenCopy(file: string, edit: (json: Record<string, unknown>) => void): string {
  const dir = mkdtempSync(join(tmpdir(), 'lint-'));
  cpSync(join(ROOT, 'schemas'), dir, { recursive: true });
  const json = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Record<string, unknown>;
  edit(json);
  writeFileSync(join(dir, file), JSON.stringify(json));
  return dir;
}

type Props = Record<string, Record<string, unknown>>;

describe('schema lint', () => {
  it('reports a keyword typo with the file and path, and keeps checking the other templates', () => {
    const dir = brokenCopy('earning/sign_up/schema.json', (s) => {
      (s.properties as Props).earnPoint!.minimun = 1;
    });
    const issues = lintSchemas(dir, UI);
    expect(issues).toEqual([expect.objectContaining({ file: 'earning/sign_up/schema.json', path: '/properties/earnPoint/minimun', message: expect.stringContaining('minimun') })]);
  });

  it('reports a default that breaks its own schema', () => {
    const dir = brokenCopy('earning/sign_up/schema.json', (s) => {
      (s.properties as Props).earnPoint!.default = -5;
    });
    expect(lintSchemas(dir, UI)).toContainEqual(expect.objectContaining({ file: 'earning/sign_up/schema.json', path: '/properties/earnPoint/default' }));
  });

  it('reports a ui.json entry for a field that does not exist, and an unknown widget', () => {
    const dir = brokenCopy('earning/sign_up/ui.json', (u) => {
      u.earnPionts = { 'ui:widget': 'points' };
      u.earnPoint = { 'ui:widget': 'sparkles' };
    });
    const issues = lintSchemas(dir, UI).filter((i) => i.file === 'earning/sign_up/ui.json');
    expect(issues.map((i) => i.path).sort()).toEqual(['/earnPionts', '/earnPoint/ui:widget']);
  });

  it('reports editor cards (ui:groups) that name a missing field, a field twice, or lack a title', () => {
    const dir = brokenCopy('earning/place_order/ui.json', (u) => {
      u['ui:groups'] = [
        { title: 'Program', fields: ['title', 'titel'] },
        { title: 'Limits', fields: ['title', '*'] },
        { fields: ['status'] },
      ];
    });
    const issues = lintSchemas(dir, UI).filter((i) => i.file === 'earning/place_order/ui.json');
    expect(issues.map((i) => [i.path, i.message])).toEqual([
      ['/ui:groups/0/fields/1', 'ui:groups names "titel", which is not a field'],
      ['/ui:groups/1/fields/0', '"title" is in two groups'],
      ['/ui:groups/2', 'a group needs a "title" and a list of "fields"'],
    ]);
  });

  it('reports a field without a label', () => {
    const dir = brokenCopy('earning/sign_up/schema.json', (s) => {
      delete (s.properties as Props).earnPoint!.title;
    });
    expect(lintSchemas(dir, UI)).toContainEqual(expect.objectContaining({ path: '/properties/earnPoint', message: expect.stringContaining('no title') }));
  });

  it('reports a pattern that can backtrack catastrophically', () => {
    const dir = brokenCopy('earning/sign_up/schema.json', (s) => {
      (s.properties as Props).title!.pattern = '^(a+)+$';
    });
    expect(lintSchemas(dir, UI)).toContainEqual(expect.objectContaining({ path: '/properties/title/pattern' }));
  });

  it('reports a list without maxItems and a text field without maxLength', () => {
    // The title's bound comes from the template's base (schemas/_bases/program.json): checked as merged.
    const dir = brokenCopy('_bases/program.json', (s) => {
      delete (s.properties as Props).title!.maxLength;
    });
    const file = join(dir, 'earning/place_order/schema.json');
    const placeOrder = JSON.parse(readFileSync(file, 'utf8')) as { properties: Props };
    delete placeOrder.properties.eligibleTiers!.maxItems;
    writeFileSync(file, JSON.stringify(placeOrder));
    const issues = lintSchemas(dir, UI).filter((i) => i.file === 'earning/place_order/schema.json');
    expect(issues).toContainEqual(expect.objectContaining({ path: '/properties/eligibleTiers', message: 'a list must declare maxItems' }));
    expect(issues).toContainEqual(expect.objectContaining({ path: '/properties/title', message: 'a text field must declare maxLength' }));
  });

  it('reports a showWhen whose field is not a sibling, with the file and pointer', () => {
    const dir = brokenCopy('tier/settings/ui.json', (u) => {
      // A typo, and a field of the parent object rather than of `assessment` itself.
      const ui = u as Record<string, Record<string, Record<string, unknown>>>;
      ui.general!.startDate = { ...ui.general!.startDate, 'ui:options': { showWhen: { field: 'sttus', equals: true } } };
      ui.assessment!.lookbackMonths!['ui:options'] = { showWhen: { field: 'general', equals: 'rolling' } };
    });
    const issues = lintSchemas(dir, UI).filter((i) => i.file === 'tier/settings/ui.json' && i.message.includes('showWhen'));
    expect(issues).toEqual([
      expect.objectContaining({ path: '/general/startDate/ui:options/showWhen/field', message: expect.stringContaining('"sttus"') }),
      expect.objectContaining({ path: '/assessment/lookbackMonths/ui:options/showWhen/field', message: expect.stringContaining('"general"') }),
    ]);
  });

  it('accepts the showWhen switches of the repository templates', () => {
    const issues = lintSchemas(join(ROOT, 'schemas'), UI).filter((i) => i.message.includes('showWhen'));
    expect(issues).toEqual([]);
  });
});
