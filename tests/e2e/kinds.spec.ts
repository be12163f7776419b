/**
 * Every kind found in schemas/, in Chromium, against the real server in demo mode: a document made
 * from the kind's first valid fixture opens in the generic editor (`/programs/edit-settings/:id`),
 * an invalid value taken from one of its invalid fixtures shows the spec's message on its field, a
 * change is saved, survives a reload, and the document is deleted through the confirmation dialog.
 *
 * The probes are chosen from the schema and checked with the engine's own validator first, so a
 * new template is covered without editing this file. The partner tier needs Shopify Plus: for
 * that kind the demo shop is given the `partner_tier` custom feature (spec 000 §3
 * Shop.customFeatures) in the database and has it taken away afterwards.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { crossFieldIssues } from '../../engine/cross-field';
import { loadRegistry, type KindEntry } from '../../engine/registry';
import type { Json, JsonObject } from '../../engine/types';
import { signInWithCookie } from './support/session';

const ROOT = join(import.meta.dirname, '..', '..');
const registry = loadRegistry(join(ROOT, 'schemas'));
// The server's database file (playwright.config.ts names it by the port).
const DB_PATH = join(ROOT, 'test-results', `e2e-${process.env.E2E_PORT ?? 3199}.sqlite`);
const DEMO_SHOP = 'demo-shop.myshopify.com';

const isObject = (v: unknown): v is JsonObject => v !== null && typeof v === 'object' && !Array.isArray(v);

function fixtureFiles(kind: string, prefix: string): string[] {
  const dir = join(ROOT, 'fixtures', 'kinds', kind);
  return existsSync(dir) ? readdirSync(dir).filter((f) => f.startsWith(prefix) && f.endsWith('.json')).sort() : [];
}
const readFixture = (kind: string, file: string) => JSON.parse(readFileSync(join(ROOT, 'fixtures', 'kinds', kind, file), 'utf8')) as Json;

/** The data a kind's document is made from: `valid-minimal.json` when there is one. */
function validFixture(kind: string): JsonObject {
  const files = fixtureFiles(kind, 'valid-');
  const file = files.includes('valid-minimal.json') ? 'valid-minimal.json' : files[0];
  if (!file) throw new Error(`${kind} has no valid fixture`);
  return readFixture(kind, file) as JsonObject;
}

function resolve(node: JsonObject, root: JsonObject): JsonObject {
  const ref = node.$ref;
  if (typeof ref !== 'string' || !ref.startsWith('#/definitions/')) return node;
  const target = (root.definitions as JsonObject)[ref.slice('#/definitions/'.length)];
  return isObject(target) ? { ...target, ...node } : node;
}

/** A scalar field reachable through nested objects: its property path and schema. */
interface Leaf {
  path: string[];
  schema: JsonObject;
}

function leaves(kind: KindEntry): Leaf[] {
  const out: Leaf[] = [];
  const visit = (node: JsonObject, path: string[]): void => {
    const resolved = resolve(node, kind.schema);
    if (isObject(resolved.properties)) {
      for (const [name, child] of Object.entries(resolved.properties)) if (isObject(child)) visit(child, [...path, name]);
    } else if (path.length > 0) out.push({ path, schema: resolved });
  };
  visit(kind.schema, []);
  return out;
}

const get = (data: Json, path: readonly string[]): Json | undefined => path.reduce<Json | undefined>((node, key) => (isObject(node) ? node[key] : undefined), data);
function withValue(data: JsonObject, path: readonly string[], value: Json | undefined): JsonObject {
  const copy = structuredClone(data);
  let node: JsonObject = copy;
  for (const key of path.slice(0, -1)) {
    if (!isObject(node[key])) node[key] = {};
    node = node[key] as JsonObject;
  }
  const last = path[path.length - 1] as string;
  if (value === undefined) delete node[last];
  else node[last] = value;
  return copy;
}

/** The engine's own verdict on a document (schema and cross-field rules), as the server gives it. */
function issuesOf(kind: KindEntry, data: JsonObject): { path: string; message: string }[] {
  const outcome = kind.validate(data);
  return outcome.ok ? crossFieldIssues(kind.id, outcome.data) : outcome.issues;
}

/** RJSF's id of a field's input: `root_general_status`. */
const inputId = (path: readonly string[]) => `root_${path.join('_')}`;
const uiOf = (kind: KindEntry, path: readonly string[]): JsonObject => (get(kind.uiSchema, path) as JsonObject | undefined) ?? {};
const typed = (schema: JsonObject) => !('enum' in schema) && !('oneOf' in schema) && !('const' in schema) && !('format' in schema);
/** Widgets that render one text box a merchant types into (ui.json `ui:widget`; none means the default input). */
const TYPEABLE_WIDGETS: readonly unknown[] = [undefined, 'textarea', 'points', 'money'];
const typeable = (kind: KindEntry, { path, schema }: Leaf) =>
  typed(schema) && schema.writeOnly !== true && ['string', 'number', 'integer'].includes(String(schema.type)) && TYPEABLE_WIDGETS.includes(uiOf(kind, path)['ui:widget']);

/** Fields a merchant can type into, with a new value the engine accepts: the save probes, best first. */
function saveProbes(kind: KindEntry, data: JsonObject): { path: string[]; value: string }[] {
  const out: { path: string[]; value: string }[] = [];
  for (const leaf of leaves(kind)) {
    const { path, schema } = leaf;
    if (!typeable(kind, leaf)) continue;
    const current = get(data, path);
    let next: Json | undefined;
    // A string gets " edited" appended, or a digit where its pattern wants one (an id of digits).
    if (schema.type === 'string') {
      const base = typeof current === 'string' ? current : '';
      next = [`${base} edited`.trim(), `${base}1`].find((value) => issuesOf(kind, withValue(data, path, value)).length === 0);
    }
    else if ((schema.type === 'number' || schema.type === 'integer') && typeof current === 'number') next = current + 1;
    if (next === undefined || issuesOf(kind, withValue(data, path, next)).length > 0) continue;
    out.push({ path, value: String(next) });
  }
  return out.sort((a, b) => Number(b.path.at(-1) === 'title' || b.path.at(-1) === 'name') - Number(a.path.at(-1) === 'title' || a.path.at(-1) === 'name'));
}

/**
 * Invalid values from the kind's invalid fixtures that a merchant can type: one field, a string or
 * number (or emptied), which alone turns the saved document invalid with the fixture's message.
 */
function validationProbes(kind: KindEntry, data: JsonObject): { path: string[]; value: string; message: string }[] {
  const fields = new Map(leaves(kind).filter((leaf) => typeable(kind, leaf)).map((l) => [l.path.join('/'), l]));
  const out: { path: string[]; value: string; message: string }[] = [];
  for (const file of fixtureFiles(kind.id, 'invalid-')) {
    const fixture = readFixture(kind.id, file) as { data: JsonObject; errors: { path: string; message: string }[] };
    for (const error of fixture.errors) {
      const path = error.path.split('/').slice(1);
      const leaf = fields.get(path.join('/'));
      const value = get(fixture.data, path);
      // A number box turns typed digits into a number: a string in a number field is not something a merchant can type.
      const numeric = leaf?.schema.type === 'number' || leaf?.schema.type === 'integer';
      if (!leaf || (value !== undefined && typeof value !== (numeric ? 'number' : 'string'))) continue;
      const issues = issuesOf(kind, withValue(data, path, value === undefined || value === '' ? undefined : value));
      if (issues.some((i) => i.path === error.path && i.message === error.message)) out.push({ path, value: value === undefined ? '' : String(value), message: error.message });
    }
  }
  return out;
}

/**
 * The kind's document to edit: created from the valid fixture, or the shop's existing singleton.
 * When documents other browser tests left behind stand in the way (a second base tier is refused),
 * they are deleted first: this test needs a shop with none of that kind.
 */
async function documentFor(request: APIRequestContext, token: string, kind: KindEntry): Promise<{ id: string; data: JsonObject }> {
  const headers = { Authorization: `Bearer ${token}` };
  const create = () => request.post(`/api/kinds/${kind.id}/docs`, { headers, data: { data: validFixture(kind.id) } });
  const existing = async () => ((await (await request.get(`/api/kinds/${kind.id}/docs`, { headers })).json()) as { data: { id: string; data: JsonObject }[] }).data;
  let created = await create();
  if (created.status() === 409 && kind.singleton) return (await existing())[0]!;
  if (created.status() === 409) {
    for (const doc of await existing()) expect((await request.delete(`/api/kinds/${kind.id}/docs/${doc.id}`, { headers })).status()).toBe(200);
    created = await create();
  }
  expect(created.status(), await created.text()).toBe(201);
  return ((await created.json()) as { data: { id: string; data: JsonObject } }).data;
}

function setCustomFeatures(features: string[]): void {
  const db = new Database(DB_PATH);
  try {
    const row = db.prepare('SELECT settings FROM shops WHERE id = ?').get(DEMO_SHOP) as { settings: string };
    const settings = { ...(JSON.parse(row.settings) as JsonObject), customFeatures: features };
    db.prepare('UPDATE shops SET settings = ? WHERE id = ?').run(JSON.stringify(settings), DEMO_SHOP);
  } finally {
    db.close();
  }
}

const saveBar = (page: Page) => page.getByRole('region', { name: 'Unsaved changes' });

for (const kind of registry.kinds) {
  test(`${kind.id}: renders, shows the spec's message, saves, reloads and deletes`, async ({ page, request }) => {
    const gated = kind.feature === 'partner_tier';
    if (gated) setCustomFeatures(['partner_tier']);
    try {
      const token = await signInWithCookie(page);
      const doc = await documentFor(request, token, kind);

      // Renders: the editor opens on the saved document.
      await page.goto(`/programs/edit-settings/${doc.id}`);
      await expect(page.locator('form')).toBeVisible();

      // Validates: an invalid value from a fixture shows the spec's message on its field.
      const invalid = validationProbes(kind, doc.data);
      const visibleInvalid = [];
      for (const probe of invalid) if (await page.locator(`#${inputId(probe.path)}`).isVisible()) visibleInvalid.push(probe);
      const check = visibleInvalid[0];
      expect(check, `${kind.id}: no invalid fixture names a field a merchant can type into`).toBeDefined();
      await page.locator(`#${inputId(check!.path)}`).fill(check!.value);
      await saveBar(page).getByRole('button', { name: 'Save' }).click();
      await expect(page.locator(`#${inputId(check!.path)}__error`)).toContainText(check!.message);
      await saveBar(page).getByRole('button', { name: 'Discard' }).click();
      await expect(saveBar(page)).toBeHidden();

      // Saves, and the change survives a reload.
      const probes = saveProbes(kind, doc.data);
      let probe: (typeof probes)[number] | undefined;
      for (const candidate of probes) {
        if (await page.locator(`#${inputId(candidate.path)}`).isVisible()) {
          probe = candidate;
          break;
        }
      }
      expect(probe, `${kind.id}: no field a merchant can change`).toBeDefined();
      const input = page.locator(`#${inputId(probe!.path)}`);
      await input.fill(probe!.value);
      await saveBar(page).getByRole('button', { name: 'Save' }).click();
      await expect(page.getByText('Saved', { exact: true }).first()).toBeVisible();
      await page.reload();
      await expect(page.locator(`#${inputId(probe!.path)}`)).toHaveValue(probe!.value);

      // Deletes, after confirming, and the API no longer has it.
      await page.getByRole('button', { name: 'Delete', exact: true }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Delete', exact: true }).click();
      await expect(page).not.toHaveURL(/edit-settings/);
      const gone = await request.get(`/api/kinds/${kind.id}/docs/${doc.id}`, { headers: { Authorization: `Bearer ${token}` } });
      expect(gone.status()).toBe(404);
    } finally {
      if (gated) setCustomFeatures([]);
    }
  });
}
