/**
 * OpenAPI 3.1 description of the app at `GET /api/openapi.json` (issue 15 "An API described by
 * the same schemas"), generated, never written by hand:
 * - the paths and methods are the Hono app's own route table (`app.routes`), walked when first
 *   asked (so every route mounted by any area is in it; middleware and wildcard fallbacks are not
 *   routes); `:param` segments become `{param}` path parameters;
 * - each kind's document body is its template schema from the registry (components
 *   `<kind id>`, draft-07 `definitions` kept and their `$ref`s pointed into the component), used by
 *   the document routes (`/api/kinds/{kind}/docs…`) and the preview (`/api/programs/simulate`);
 * - security: a session token (bearer JWT) for `/api/*`, the webhook HMAC header for
 *   `/api/webhooks/*`, the app-proxy signature for `/proxy/*`; none for the rest.
 * tests/api/openapi.test.ts checks that every route is described and that the document validates.
 */
import { Hono } from 'hono';
import type { Json, JsonObject } from '../engine/types';
import { isJsonObject } from '../engine/types';
import type { AppDeps, AppEnv } from './deps';

/** A route of the table as described: OpenAPI path (`/api/kinds/{kind}`) and lower-case method. */
export interface DescribedRoute {
  path: string;
  method: string;
}

const METHODS = new Set(['get', 'post', 'put', 'patch', 'delete', 'head', 'options']);

/** The app's routes as OpenAPI paths and methods: middleware (`ALL`) and wildcard paths left out, duplicates merged. */
export function routesOf(app: Pick<Hono<AppEnv>, 'routes'>): DescribedRoute[] {
  const seen = new Set<string>();
  const out: DescribedRoute[] = [];
  for (const r of app.routes) {
    const method = r.method.toLowerCase();
    if (!METHODS.has(method) || r.path.includes('*')) continue;
    const path = openApiPath(r.path);
    const key = `${method} ${path}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ path, method });
  }
  return out;
}

/**
 * `/api/kinds/:kind/docs/:id{[0-9]+}` → `/api/kinds/{kind}/docs/{id}` (a parameter's pattern may hold
 * slashes: `/webhooks/:topic{[a-z_]+/[a-z_]+}` → `/webhooks/{topic}`); a trailing slash dropped.
 */
export function openApiPath(honoPath: string): string {
  let out = '';
  for (let i = 0; i < honoPath.length; i++) {
    const ch = honoPath[i];
    if (ch !== ':' || (i > 0 && honoPath[i - 1] !== '/')) {
      out += ch;
      continue;
    }
    let j = i + 1;
    while (j < honoPath.length && /[A-Za-z0-9_]/.test(honoPath[j] as string)) j++;
    const name = honoPath.slice(i + 1, j);
    if (honoPath[j] === '{') {
      let depth = 0;
      for (; j < honoPath.length; j++) {
        if (honoPath[j] === '{') depth++;
        else if (honoPath[j] === '}' && --depth === 0) break;
      }
      j++;
    }
    if (honoPath[j] === '?') j++;
    out += `{${name}}`;
    i = j - 1;
  }
  return out.length > 1 && out.endsWith('/') ? out.slice(0, -1) : out;
}

function paramsOf(path: string): string[] {
  return [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] as string);
}

/** A kind's template schema as an OpenAPI 3.1 component: `$schema` dropped, local `$ref`s pointed into the component. */
export function componentSchema(name: string, schema: JsonObject): JsonObject {
  const prefix = `#/components/schemas/${name.replace(/~/g, '~0').replace(/\//g, '~1')}/`;
  const rewrite = (node: Json): Json => {
    if (Array.isArray(node)) return node.map(rewrite);
    if (!isJsonObject(node)) return node;
    const out: JsonObject = {};
    for (const [key, value] of Object.entries(node)) {
      if (key === '$schema') continue;
      out[key] = key === '$ref' && typeof value === 'string' && value.startsWith('#/') ? `${prefix}${value.slice(2)}` : rewrite(value);
    }
    return out;
  };
  return rewrite(schema) as JsonObject;
}

const ERROR_SCHEMA: JsonObject = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: {
        code: { type: 'string' },
        message: { type: 'string' },
        details: { type: 'array', items: { type: 'object', required: ['path', 'message'], properties: { path: { type: 'string', description: 'JSON Pointer into the document' }, message: { type: 'string' } } } },
      },
    },
  },
};

/** Short words for the routes whose purpose the path alone does not say. */
const SUMMARIES: Record<string, string> = {
  'get /api/openapi.json': 'This description (OpenAPI 3.1)',
  'get /api/kinds': 'Kinds found under schemas/',
  'get /api/kinds/{kind}': "One kind's bundled schema and uiSchema",
  'get /api/kinds/{kind}/docs': "List a kind's documents",
  'post /api/kinds/{kind}/docs': 'Create a document (body: { data } valid against the kind\'s template)',
  'get /api/kinds/{kind}/docs/{id}': 'Read a document',
  'put /api/kinds/{kind}/docs/{id}': 'Replace a document ({ data, version }); 409 version_conflict when stale',
  'delete /api/kinds/{kind}/docs/{id}': 'Delete a document',
  'get /api/documents/{id}/versions': "A document's saved versions, newest first",
  'get /api/documents/{id}/versions/{version}': 'One saved version with its data',
  'get /api/documents/{id}/diff': 'The changes between two versions, in words (?from=&to=&language=)',
  'post /api/documents/{id}/rollback': 'Save an old version as a new one ({ version, expectedVersion? })',
  'post /api/programs/simulate': 'Preview a draft place-order program over the stored orders of 30 or 90 days',
  'get /api/translation': 'The storefront translation (primaryLanguage, detectMethod, additionalLanguages, content); ?type=<variant> adds its tabs and shipped texts',
  'post /api/translation': 'Save the whole translation object; 422 with the field path when a text drops or adds a {{placeholder}}',
  'get /proxy/translation': "One translation variant's texts for a storefront block (?type=&language=): merchant, shipped, primary language, English",
};

/**
 * Builds the OpenAPI 3.1 document for `app`'s route table and `deps.registry`'s kinds.
 * @returns a plain JSON object (`openapi: "3.1.0"`)
 */
export function buildOpenApi(deps: AppDeps, app: Pick<Hono<AppEnv>, 'routes'>): JsonObject {
  const schemas: JsonObject = { Error: ERROR_SCHEMA };
  const kindRefs: JsonObject[] = [];
  for (const kind of deps.registry.kinds) {
    schemas[kind.id] = componentSchema(kind.id, kind.schema);
    kindRefs.push({ $ref: `#/components/schemas/${kind.id}` });
  }
  const anyDocument: JsonObject = kindRefs.length > 0 ? { oneOf: kindRefs, description: "The data of a document of the path's kind: that kind's template schema" } : { type: 'object' };
  const placeOrder: JsonObject = deps.registry.get('earning.place_order') ? { $ref: '#/components/schemas/earning.place_order' } : { type: 'object' };

  const paths: Record<string, JsonObject> = {};
  for (const { path, method } of routesOf(app)) {
    const key = `${method} ${path}`;
    const operation: JsonObject = {
      operationId: `${method}${path.replace(/[{}]/g, '').replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ''))}`,
      summary: SUMMARIES[key] ?? `${method.toUpperCase()} ${path}`,
      tags: [path.split('/').filter(Boolean).slice(0, path.startsWith('/api/') ? 2 : 1).join('/') || 'root'],
      responses: {
        '200': { description: 'Success', content: { 'application/json': { schema: { type: 'object' } } } },
        default: { description: 'Error', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
      },
    };
    const params: JsonObject[] = paramsOf(path).map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } }));
    if (path.startsWith('/api/kinds/{kind}') || path === '/api/documents/{id}/diff' || path === '/api/rules/catalog') {
      if (method === 'get') params.push({ name: 'language', in: 'query', required: false, schema: { type: 'string', enum: ['en', 'en-US', 'fr', 'es', 'de', 'it', 'ja', 'id'] } });
    }
    if (path === '/api/documents/{id}/diff') {
      params.push({ name: 'from', in: 'query', required: true, schema: { type: 'integer', minimum: 1 } }, { name: 'to', in: 'query', required: true, schema: { type: 'integer', minimum: 1 } });
    }
    if (params.length > 0) operation.parameters = params;
    if (method === 'post' || method === 'put' || method === 'patch') {
      let body: JsonObject = { type: 'object' };
      if (path === '/api/kinds/{kind}/docs') body = { type: 'object', required: ['data'], properties: { data: anyDocument } };
      else if (path === '/api/kinds/{kind}/docs/{id}') body = { type: 'object', required: ['data', 'version'], properties: { data: anyDocument, version: { type: 'integer' } } };
      else if (path === '/api/programs/simulate') {
        body = { type: 'object', required: ['data'], properties: { data: placeOrder, id: { type: 'string' }, windowDays: { type: 'integer', enum: [30, 90], default: 30 } } };
      } else if (path === '/api/documents/{id}/rollback') body = { type: 'object', required: ['version'], properties: { version: { type: 'integer', minimum: 1 }, expectedVersion: { type: 'integer' } } };
      operation.requestBody = { required: false, content: { 'application/json': { schema: body } } };
    }
    if (path.startsWith('/api/webhooks/')) operation.security = [{ webhookHmac: [] }];
    else if (path.startsWith('/api/') && path !== '/api/openapi.json') operation.security = [{ sessionToken: [] }];
    else if (path.startsWith('/proxy/')) operation.security = [{ appProxySignature: [] }];
    const item = paths[path] ?? {};
    item[method] = operation;
    paths[path] = item;
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Loyalty configurator API', version: '1.0.0', description: 'Generated from the app\'s route table and the kinds\' template schemas (server/openapi.ts).' },
    servers: [{ url: '/' }],
    paths: Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b))),
    components: {
      schemas,
      securitySchemes: {
        sessionToken: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'HS256 session token: iss, dest https://<shop>, aud = API key, exp, nbf, sub' },
        webhookHmac: { type: 'apiKey', in: 'header', name: 'X-Shopify-Hmac-Sha256', description: 'Base64 HMAC-SHA256 of the raw body with the app secret; X-Shopify-Shop-Domain names the shop' },
        appProxySignature: { type: 'apiKey', in: 'query', name: 'signature', description: "The platform's app-proxy signature over the sorted query" },
      },
    },
  };
}

/** `GET /openapi.json` (mount under `/api`, before the session-guarded API): built once, on first request, from `app`. */
export function openApiRoutes(deps: AppDeps, app: Pick<Hono<AppEnv>, 'routes'>): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  let document: JsonObject | undefined;
  routes.get('/openapi.json', (c) => {
    document ??= buildOpenApi(deps, app);
    return c.json(document);
  });
  return routes;
}
