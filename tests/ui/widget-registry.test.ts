import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fieldNames, widgetNames } from '../../ui/form/widgets';
import { ICON_SET } from '../../ui/form/widgets/icon-set';
import { loadTemplates } from '../../engine/template-loader';

const schemasDir = join(import.meta.dirname, '../../schemas');

/** Every kind's ui.json as served (merged onto its bases' ui.json; engine/template-loader.ts), whatever the family. */
function uiSchemas(dir: string): { file: string; ui: unknown }[] {
  return loadTemplates(dir).templates.map((t) => ({ file: t.uiFile ?? t.schemaFile, ui: t.ui }));
}

/** The names a uiSchema gives under `key` (`ui:widget` or `ui:field`), at any depth. */
function namesIn(key: string, node: unknown, into: Set<string> = new Set()): Set<string> {
  if (Array.isArray(node)) node.forEach((item) => namesIn(key, item, into));
  else if (node && typeof node === 'object') {
    for (const [name, value] of Object.entries(node)) {
      if (name === key && typeof value === 'string') into.add(value);
      else namesIn(key, value, into);
    }
  }
  return into;
}

/** `file: name` for every name under `key` in a ui.json that `registered` lacks. */
function unregistered(key: string, registered: readonly string[]): string[] {
  return uiSchemas(schemasDir).flatMap(({ file, ui }) =>
    [...namesIn(key, ui)]
      .filter((name) => !registered.includes(name))
      .map((name) => `${file}: ${name}`),
  );
}

describe('widget registry', () => {
  it('registers every widget a kind\'s ui.json names', () => {
    expect(unregistered('ui:widget', widgetNames)).toEqual([]);
  });

  it('registers every field a kind\'s ui.json names', () => {
    expect(unregistered('ui:field', fieldNames)).toEqual([]);
  });
});

describe('the icon widget and _shared/icon.json', () => {
  const iconSchema = JSON.parse(readFileSync(join(schemasDir, '_shared/icon.json'), 'utf8')) as { pattern: string };
  const pattern = new RegExp(iconSchema.pattern);

  it('name the same built-in icons, so every icon the picker offers can be saved', () => {
    const named = /^\^\(\?:([a-z|]+)\|/.exec(iconSchema.pattern)?.[1]?.split('|');
    expect(named).toEqual(ICON_SET.map((icon) => icon.name));
    for (const icon of ICON_SET) expect(pattern.test(icon.name)).toBe(true);
  });

  it('accepts an image address and refuses other text', () => {
    expect(pattern.test('https://cdn.example.com/gold.png')).toBe(true);
    expect(pattern.test('sparkles')).toBe(false);
    expect(pattern.test('javascript:alert(1)')).toBe(false);
  });
});
