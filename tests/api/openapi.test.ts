import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { openApiPath, routesOf } from '../../server/openapi';
import { makeApp, repoRegistry } from '../support/app';

interface OpenApiDoc {
  openapi: string;
  paths: Record<string, Record<string, { security?: unknown[]; requestBody?: { content: Record<string, { schema: { properties?: Record<string, unknown> } }> } }>>;
  components: { schemas: Record<string, { properties?: Record<string, unknown> }> };
}

describe('GET /api/openapi.json', () => {
  it('describes every route of the app table, without a session token', async () => {
    const { app } = await makeApp();
    const res = await app.request('/api/openapi.json');
    expect(res.status).toBe(200);
    const doc = (await res.json()) as OpenApiDoc;
    expect(doc.openapi).toBe('3.1.0');
    const table = app.routes.filter((r) => r.method !== 'ALL' && !r.path.includes('*'));
    expect(table.length).toBeGreaterThan(40);
    const missing = table.filter((r) => !doc.paths[openApiPath(r.path)]?.[r.method.toLowerCase()]).map((r) => `${r.method} ${r.path}`);
    expect(missing).toEqual([]);
    expect(routesOf(app).length).toBe(Object.values(doc.paths).reduce((n, item) => n + Object.keys(item).length, 0));
    for (const path of ['/api/kinds/{kind}/docs/{id}', '/api/documents/{id}/versions', '/api/documents/{id}/diff', '/api/documents/{id}/rollback', '/api/programs/simulate', '/api/customers/{id}', '/api/openapi.json']) {
      expect(doc.paths[path], path).toBeDefined();
    }
    expect(doc.paths['/api/customers/{id}']?.get?.security).toEqual([{ sessionToken: [] }]);
    expect(doc.paths['/api/webhooks/{topic}']?.post?.security).toEqual([{ webhookHmac: [] }]);
    expect(openApiPath('/api/webhooks/:topic{[a-z_]+/[a-z_]+}')).toBe('/api/webhooks/{topic}');
    expect(openApiPath('/api/kinds/:kind/docs/:id?')).toBe('/api/kinds/{kind}/docs/{id}');
  });

  it("uses each kind's template schema as its document body", async () => {
    const { app } = await makeApp();
    const doc = (await (await app.request('/api/openapi.json')).json()) as OpenApiDoc;
    for (const kind of repoRegistry().kinds) expect(doc.components.schemas[kind.id], kind.id).toBeDefined();
    expect(doc.components.schemas['earning.place_order']?.properties).toHaveProperty('earnPoint');
    const body = doc.paths['/api/programs/simulate']?.post?.requestBody?.content['application/json']?.schema.properties;
    expect(body?.data).toEqual({ $ref: '#/components/schemas/earning.place_order' });
    const create = doc.paths['/api/kinds/{kind}/docs']?.post?.requestBody?.content['application/json']?.schema.properties?.data as { oneOf: unknown[] };
    expect(create.oneOf).toHaveLength(repoRegistry().kinds.length);
    // No reference is left pointing at the draft-07 root `definitions` of a template.
    expect(JSON.stringify(doc)).not.toContain('"#/definitions/');
  });

  it('validates against the OpenAPI 3.1 schema, references resolved', async () => {
    const { app } = await makeApp();
    const doc = (await (await app.request('/api/openapi.json')).json()) as Record<string, unknown>;
    const validator = new Validator();
    const result = await validator.validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
    // Every $ref (kind components, their definitions, the error shape) resolves, or this throws.
    const resolved = validator.resolveRefs() as { paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: { properties: { data: { properties?: Record<string, unknown> } } } }> } }>> };
    expect(resolved.paths['/api/programs/simulate']?.post?.requestBody?.content['application/json']?.schema.properties.data.properties).toHaveProperty('conditions');
  });
});
