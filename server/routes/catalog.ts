/**
 * What the form widgets pick from: the shop's products and collections (the demo catalogue in
 * fixtures/demo/catalog.json until the platform's catalogue is wired in) and the rule catalog —
 * condition fields and the spec's operators — so the condition builder is data-driven (STYLE.md,
 * Medusa's lesson) and cannot drift from the engine.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Hono } from 'hono';
import { FACTS } from '../../engine/rules-engine';
import { OPERATORS } from '../../rules/operators/index';
import conditionSchema from '../../schemas/_shared/condition.json';
import { translate } from '../../engine/i18n';
import type { AppDeps, AppEnv } from '../deps';
import { languageParam } from './body';
import type { CatalogCollection, CatalogProduct } from '../../engine/types';
import { projectRoot } from '../paths';

let demo: { products: CatalogProduct[]; collections: CatalogCollection[] } | undefined;
function catalog() {
  demo ??= JSON.parse(readFileSync(join(projectRoot(), 'fixtures', 'demo', 'catalog.json'), 'utf8')) as NonNullable<typeof demo>;
  return demo;
}

const fieldLabels = new Map(conditionSchema.properties.field.oneOf.map((o) => [o.const, o.title]));

function matches(query: string, ids: string[] | null, item: { id: string; title: string }): boolean {
  if (ids) return ids.includes(item.id);
  return query === '' || item.title.toLowerCase().includes(query);
}

export function catalogRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get('/catalog/products', (c) => {
    const query = (c.req.query('query') ?? '').trim().toLowerCase();
    const ids = c.req.query('ids') ? (c.req.query('ids') ?? '').split(',').filter(Boolean) : null;
    const data = catalog().products.filter((p) => matches(query, ids, p)).slice(0, 50);
    return c.json({ data, count: data.length });
  });
  app.get('/catalog/collections', (c) => {
    const query = (c.req.query('query') ?? '').trim().toLowerCase();
    const ids = c.req.query('ids') ? (c.req.query('ids') ?? '').split(',').filter(Boolean) : null;
    const data = catalog().collections.filter((p) => matches(query, ids, p));
    return c.json({ data, count: data.length });
  });
  /** `?language=` translates the labels through the shared label catalog (schemas/_i18n). */
  app.get('/rules/catalog', (c) => {
    const labels = deps.registry.labels.shared(languageParam(c));
    return c.json({
      data: {
        fields: [...FACTS].map(([id, f]) => ({ id, label: translate(fieldLabels.get(id) ?? id, labels), criteria: f.criteria, type: f.type })),
        operators: OPERATORS.map((o) => ({ name: o.name, label: translate(o.label, labels), needsValue: o.needsValue })),
      },
    });
  });
  return app;
}
