/**
 * The spec's program calls (spec 001 §7): `GET /lp/programs/earning`, `GET /lp/programs/spending`,
 * plus `GET /lp/programs/:id` so an edit screen can open a program by id alone.
 */
import { Hono } from 'hono';
import type { AppDeps, AppEnv } from '../deps';
import { notFound } from '../errors';
import { publicDocument } from '../services/documents';
import { findDocument, listDocuments } from '../store/documents';
import type { StoredDocument } from '../../engine/types';

/** Program type (spec 001 §3 Program.type) by kind family. */
const TYPE_BY_FAMILY: Record<string, 'earning' | 'spending'> = { earning: 'earning', redeem: 'spending' };

/** A program row: the stored document plus the summary fields list screens show. */
export type ProgramRow = StoredDocument & { type: 'earning' | 'spending'; event: string; title: string; status: boolean };

function toRow(doc: StoredDocument): ProgramRow | null {
  const [family, name] = doc.kind.split('.');
  const type = TYPE_BY_FAMILY[family ?? ''];
  if (!type || !name) return null;
  return { ...doc, type, event: name, title: typeof doc.data.title === 'string' ? doc.data.title : name, status: doc.data.status === true };
}

export function programRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const list = async (shopId: string, family: string): Promise<ProgramRow[]> => {
    const kinds = deps.registry.kinds.filter((k) => k.family === family).map((k) => k.id);
    const docs = await listDocuments(deps.db, shopId, kinds);
    return docs.map((doc) => toRow(publicDocument(deps, doc))).filter((r): r is ProgramRow => r !== null);
  };

  app.get('/lp/programs/earning', async (c) => c.json({ data: await list(c.get('shopId'), 'earning') }));
  app.get('/lp/programs/spending', async (c) => c.json({ data: await list(c.get('shopId'), 'redeem') }));
  app.get('/lp/programs/:id', async (c) => {
    const doc = await findDocument(deps.db, c.get('shopId'), c.req.param('id'));
    const row = doc ? toRow(publicDocument(deps, doc)) : null;
    if (!row) throw notFound('not_found', 'This program does not exist or was deleted');
    return c.json({ data: row });
  });
  return app;
}
