import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { widgetNames } from '../../ui/form/widgets';

const schemasDir = join(import.meta.dirname, '../../schemas');

/** Every ui.json under schemas/, whatever the family. */
function uiFiles(dir: string): string[] {
  let found: string[] = [];
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) found = found.concat(uiFiles(path));
    else if (entry === 'ui.json') found.push(path);
  }
  return found;
}

/** The `ui:widget` names a uiSchema uses, at any depth. */
function widgetsIn(node: unknown, into: Set<string> = new Set()): Set<string> {
  if (Array.isArray(node)) node.forEach((item) => widgetsIn(item, into));
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === 'ui:widget' && typeof value === 'string') into.add(value);
      else widgetsIn(value, into);
    }
  }
  return into;
}

describe('widget registry', () => {
  it('registers every widget a kind\'s ui.json names', () => {
    const missing = uiFiles(schemasDir).flatMap((file) =>
      [...widgetsIn(JSON.parse(readFileSync(file, 'utf8')))]
        .filter((name) => !widgetNames.includes(name))
        .map((name) => `${file}: ${name}`),
    );
    expect(missing).toEqual([]);
  });
});
