// @vitest-environment jsdom
/**
 * Conformance, browser half (STYLE.md habit 4): every kind found in schemas/ renders in the one
 * generic form with each of its valid fixtures — every top-level field's label is on screen, unless
 * its ui.json `showWhen` switch is off for that fixture — and
 * the form's own validation (the browser's ajv) accepts the fixture, as the server does.
 */
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { screen, waitFor } from '@testing-library/react';
import validator from '@rjsf/validator-ajv8';
import type { RJSFSchema } from '@rjsf/utils';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadRegistry } from '../../engine/registry';
import type { JsonObject } from '../../engine/types';
import { conditionHolds, showWhenOf } from '../../ui/form/show-when';
import { renderForm, json } from './form-harness';

const ROOT = join(import.meta.dirname, '..', '..');
const registry = loadRegistry(join(ROOT, 'schemas'));

function validFixtures(kind: string): string[] {
  const dir = join(ROOT, 'fixtures', 'kinds', kind);
  return existsSync(dir) ? readdirSync(dir).filter((f) => f.startsWith('valid-')).sort() : [];
}

beforeEach(() => {
  // The pickers and builders ask the server for catalogues; an empty shop answers.
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) =>
      String(url).includes('/rules/catalog') ? json({ data: { fields: [], operators: [] } }) : json({ data: [], count: 0 }),
    ),
  );
});
afterEach(() => vi.unstubAllGlobals());

const cases = registry.kinds.flatMap((kind) => validFixtures(kind.id).map((file) => [kind.id, file] as const));

describe.each(cases)('%s renders %s', (kindId, file) => {
  it('shows every top-level field and passes the form validation', async () => {
    const kind = registry.get(kindId)!;
    const outcome = kind.validate(JSON.parse(readFileSync(join(ROOT, 'fixtures', 'kinds', kindId, file), 'utf8')));
    expect(outcome.ok).toBe(true);
    const data = (outcome as { data: JsonObject }).data;
    const hidden = new Set(
      Object.entries(kind.uiSchema)
        .filter(([, v]) => v !== null && typeof v === 'object' && (v as JsonObject)['ui:widget'] === 'hidden')
        .map(([k]) => k),
    );
    const { container } = renderForm({ schema: kind.schema, uiSchema: kind.uiSchema, formData: data });
    const properties = (kind.schema.properties ?? {}) as Record<string, { title?: string }>;
    for (const [name, prop] of Object.entries(properties)) {
      if (hidden.has(name) || !prop.title) continue;
      // A field switched off by its sibling (ui.json showWhen) is rightly out of sight.
      const condition = showWhenOf(kind.uiSchema[name]);
      if (condition && !conditionHolds(condition, data)) continue;
      await waitFor(() => expect(screen.getAllByText(prop.title!, { exact: false }).length).toBeGreaterThan(0));
    }
    expect(container.querySelector('form')).not.toBeNull();
    // The browser's validator (the one the save bar runs) agrees with the server.
    expect(validator.validateFormData(data, kind.schema as RJSFSchema).errors).toEqual([]);
  });
});
