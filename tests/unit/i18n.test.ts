import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { IN_APP_LANGUAGES, isInAppLanguage, localizeTemplate, placeholders, readCatalog, schemaLabels, TRANSLATED_LANGUAGES, uiLabels } from '../../engine/i18n';
import { loadRegistry } from '../../engine/registry';
import { lintSchemas } from '../../engine/schema-lint';
import { OPERATORS } from '../../rules/operators/index';
import { ROOT } from '../support/app';
import * as form from '../../ui/form/widgets';

const UI = { widgets: form.widgetNames, fields: (form as { fieldNames?: readonly string[] }).fieldNames ?? [] };

/** A copy of schemas/ to break or extend. */
function schemasCopy(): string {
  const dir = mkdtempSync(join(tmpdir(), 'i18n-'));
  cpSync(join(ROOT, 'schemas'), dir, { recursive: true });
  return dir;
}

function editJson(file: string, edit: (json: Record<string, unknown>) => void): void {
  const json = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  edit(json);
  writeFileSync(file, JSON.stringify(json, null, 2));
}

type Props = Record<string, Record<string, unknown>>;

describe('label walk', () => {
  const schema = {
    title: 'Root',
    properties: {
      a: { title: 'Status', description: 'On or off', default: { title: 'data, not a label' } },
      b: { type: 'string', oneOf: [{ const: 'x', title: 'Option X' }], examples: ['Example'] },
      c: { type: 'array', items: { title: 'Row', properties: { d: { title: 'Inner' } } } },
    },
    definitions: { part: { title: 'Shared part' } },
  };
  const ui = { a: { 'ui:help': 'Help text', 'ui:widget': 'toggle' }, b: { 'ui:enumNames': ['X name'], 'ui:options': { placeholder: 'Type here' } } };

  it('finds titles and descriptions in schema positions only, with their pointers', () => {
    expect(schemaLabels(schema)).toEqual([
      { path: '/title', text: 'Root' },
      { path: '/properties/a/title', text: 'Status' },
      { path: '/properties/a/description', text: 'On or off' },
      { path: '/properties/b/oneOf/0/title', text: 'Option X' },
      { path: '/properties/c/items/title', text: 'Row' },
      { path: '/properties/c/items/properties/d/title', text: 'Inner' },
      { path: '/definitions/part/title', text: 'Shared part' },
    ]);
  });

  it('finds ui.json help, placeholders and enum names but not widget names', () => {
    expect(uiLabels(ui).map((l) => l.text)).toEqual(['Help text', 'X name', 'Type here']);
  });

  it('translates a deep copy and leaves data and unknown texts alone', () => {
    const catalog = { Status: 'Statut', 'Option X': 'Option X (fr)', 'Help text': 'Aide', 'data, not a label': 'NO' };
    const out = localizeTemplate(schema, ui, catalog);
    const props = out.schema.properties as Props;
    expect(props.a!.title).toBe('Statut');
    expect(props.a!.description).toBe('On or off');
    expect(props.a!.default).toEqual({ title: 'data, not a label' });
    expect((props.b!.oneOf as { title: string }[])[0]!.title).toBe('Option X (fr)');
    expect((out.uiSchema.a as Record<string, unknown>)['ui:help']).toBe('Aide');
    expect((schema.properties.a as { title: string }).title).toBe('Status');
  });

  it('compares placeholders by name', () => {
    expect(placeholders('Delete {title} from {plan}')).toEqual(['plan', 'title']);
    expect(placeholders('No placeholder')).toEqual([]);
  });

  it('knows the spec in-app languages, exact case', () => {
    expect(IN_APP_LANGUAGES).toEqual(['en', 'en-US', 'fr', 'es', 'de', 'it', 'ja', 'id']);
    expect(isInAppLanguage('fr')).toBe(true);
    expect(isInAppLanguage('en-us')).toBe(false);
    expect(isInAppLanguage('uk')).toBe(false);
  });

  it('refuses a catalog that is not an object of strings, naming the file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cat-'));
    writeFileSync(join(dir, 'fr.json'), '{"Status": 3}');
    expect(() => readCatalog(join(dir, 'fr.json'))).toThrow(/fr\.json: the translation of "Status" is not a string/);
  });
});

describe('translations of the repository schemas', () => {
  const registry = loadRegistry(join(ROOT, 'schemas'));

  it('has every label of every template translated into each translated language (schemas:check is clean)', () => {
    expect(lintSchemas(join(ROOT, 'schemas'), UI)).toEqual([]);
  });

  it('translates every operator label of the condition builder', () => {
    for (const language of TRANSLATED_LANGUAGES) {
      const catalog = registry.labels.shared(language);
      const missing = OPERATORS.filter((o) => !Object.hasOwn(catalog, o.label)).map((o) => o.label);
      expect({ language, missing }).toEqual({ language, missing: [] });
    }
  });

  it('serves a kind in French with translated labels and the English data untouched', () => {
    const fr = registry.localized('earning.sign_up', 'fr');
    const en = registry.localized('earning.sign_up', 'en');
    const catalog = registry.labels.forKind('earning.sign_up', 'fr');
    const frEarn = (fr?.schema.properties as Props).earnPoint!;
    const enEarn = (en?.schema.properties as Props).earnPoint!;
    expect(enEarn.title).toBe('Points earned');
    expect(frEarn.title).toBe(catalog['Points earned']);
    expect(frEarn.title).not.toBe('Points earned');
    expect(frEarn.default).toEqual(enEarn.default);
    expect(fr?.title).toBe(catalog['Sign up']);
    expect(registry.localized('earning.sign_up', 'en-US')).toEqual(en);
  });
});

describe('schemas:check and translations', () => {
  it('reports a new label with no translation once per language, at its pointer', () => {
    const dir = schemasCopy();
    editJson(join(dir, 'earning/sign_up/schema.json'), (s) => {
      (s.properties as Props).earnPoint!.description = 'A brand-new help text nobody translated';
    });
    const issues = lintSchemas(dir, UI);
    expect(issues.map((i) => `${i.file} ${i.path}`)).toEqual(TRANSLATED_LANGUAGES.map(() => 'earning/sign_up/schema.json /properties/earnPoint/description'));
    expect(issues.map((i) => i.message)).toContainEqual(expect.stringContaining('no ja translation of "A brand-new help text nobody translated"'));
  });

  it('reports a translation that drops a placeholder of a ui.json text', () => {
    const dir = schemasCopy();
    editJson(join(dir, 'earning/sign_up/ui.json'), (u) => {
      u.earnPoint = { ...(u.earnPoint as object), 'ui:help': 'At most {max} points' };
    });
    for (const language of TRANSLATED_LANGUAGES) {
      editJson(join(dir, `_i18n/${language}.json`), (c) => {
        c['At most {max} points'] = language === 'de' ? 'Höchstens Punkte' : `{max} (${language})`;
      });
    }
    expect(lintSchemas(dir, UI)).toEqual([
      { file: 'earning/sign_up/ui.json', path: '/earnPoint/ui:help', message: 'the de translation of "At most {max} points" must keep the placeholders {max}' },
    ]);
  });

  it("accepts a template's own i18n folder, and the registry serves its entries over the shared ones", () => {
    const dir = schemasCopy();
    editJson(join(dir, 'earning/sign_up/schema.json'), (s) => {
      (s.properties as Props).earnPoint!.title = 'Welcome points';
    });
    mkdirSync(join(dir, 'earning/sign_up/i18n'));
    for (const language of TRANSLATED_LANGUAGES) {
      writeFileSync(join(dir, `earning/sign_up/i18n/${language}.json`), JSON.stringify({ 'Welcome points': `Welcome (${language})`, 'Sign up': `Sign-up (${language})` }));
    }
    expect(lintSchemas(dir, UI)).toEqual([]);
    const registry = loadRegistry(dir);
    expect(((registry.localized('earning.sign_up', 'it')?.schema.properties as Props).earnPoint!).title).toBe('Welcome (it)');
    expect(registry.summaries('ja').find((k) => k.id === 'earning.sign_up')?.title).toBe('Sign-up (ja)');
    // Other kinds keep the shared translation of the same English text.
    const shared = registry.labels.shared('it')['Sign up'];
    expect(registry.localized('earning.sign_up', 'it')?.title).not.toBe(shared);
  });
});
