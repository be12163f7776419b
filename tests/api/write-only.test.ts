import { describe, expect, it } from 'vitest';
import { WRITE_ONLY_MASK } from '../../engine/write-only';
import { makeApp } from '../support/app';

type Doc = { id: string; version: number; data: Record<string, unknown> };
const path = '/api/kinds/integration.review_app/docs';

describe('review app secret key (writeOnly)', () => {
  it('stores the secret but answers it masked on create, read and list', async () => {
    const { call, db } = await makeApp();
    const created = (await (await call('POST', path, { data: { appKey: 'jdgm-app', secretKey: 'jdgm-secret-123' } })).json()) as { data: Doc };
    expect(created.data.data.secretKey).toBe(WRITE_ONLY_MASK);
    const read = (await (await call('GET', `${path}/${created.data.id}`)).json()) as { data: Doc };
    expect(read.data.data).toMatchObject({ appKey: 'jdgm-app', secretKey: WRITE_ONLY_MASK });
    const list = (await (await call('GET', path)).json()) as { data: Doc[] };
    expect(JSON.stringify(list)).not.toContain('jdgm-secret-123');
    const row = await db.selectFrom('documents').select('data').where('id', '=', created.data.id).executeTakeFirstOrThrow();
    expect(JSON.parse(row.data).secretKey).toBe('jdgm-secret-123');
  });

  it('keeps the stored secret when a save sends the mask back, and replaces it when a new one is typed', async () => {
    const { call, db } = await makeApp();
    const created = (await (await call('POST', path, { data: { appKey: 'k1', secretKey: 'first-secret' } })).json()) as { data: Doc };
    const stored = async () => JSON.parse((await db.selectFrom('documents').select('data').where('id', '=', created.data.id).executeTakeFirstOrThrow()).data).secretKey as string;

    const kept = await call('PUT', `${path}/${created.data.id}`, { data: { ...created.data.data, appKey: 'k2' }, version: created.data.version });
    expect(kept.status).toBe(200);
    expect(await stored()).toBe('first-secret');

    const replaced = await call('PUT', `${path}/${created.data.id}`, { data: { ...created.data.data, appKey: 'k2', secretKey: 'second-secret' }, version: created.data.version + 1 });
    expect(replaced.status).toBe(200);
    expect(((await replaced.json()) as { data: Doc }).data.data.secretKey).toBe(WRITE_ONLY_MASK);
    expect(await stored()).toBe('second-secret');
  });

  it('refuses the mask as a new secret: nothing is stored behind it', async () => {
    const { call } = await makeApp();
    const res = await call('POST', path, { data: { appKey: 'k', secretKey: WRITE_ONLY_MASK } });
    expect(res.status).toBe(422);
    expect(((await res.json()) as { error: { details: unknown[] } }).error.details).toEqual([{ path: '/secretKey', message: 'This field is required' }]);
    expect(((await (await call('GET', path)).json()) as { data: Doc[] }).data).toEqual([]);
  });
});
