import { describe, expect, it } from 'vitest';
import { WRITE_ONLY_MASK } from '../../engine/write-only';
import { AUTH, SHOP, makeApp, repoRegistry } from '../support/app';
import { SEALED_PREFIX, openSecret, sealStoredSecrets } from '../../server/services/sealed-secrets';

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
    // Stored sealed (AES-256-GCM, the shop as associated data), in the document and its version row.
    const row = await db.selectFrom('documents').select('data').where('id', '=', created.data.id).executeTakeFirstOrThrow();
    const version = await db.selectFrom('document_versions').select('data').where('document_id', '=', created.data.id).executeTakeFirstOrThrow();
    for (const stored of [row.data, version.data]) {
      expect(stored).not.toContain('jdgm-secret-123');
      const secret = JSON.parse(stored).secretKey as string;
      expect(secret.startsWith(SEALED_PREFIX)).toBe(true);
      expect(openSecret({ auth: AUTH }, SHOP, secret)).toBe('jdgm-secret-123');
      // Sealed for this shop: another shop's row holding it opens to nothing.
      expect(openSecret({ auth: AUTH }, 'other-shop.myshopify.com', secret)).toBeNull();
    }
  });

  it('keeps the stored secret when a save sends the mask back, and replaces it when a new one is typed', async () => {
    const { call, db } = await makeApp();
    const created = (await (await call('POST', path, { data: { appKey: 'k1', secretKey: 'first-secret' } })).json()) as { data: Doc };
    const sealed = async () => JSON.parse((await db.selectFrom('documents').select('data').where('id', '=', created.data.id).executeTakeFirstOrThrow()).data).secretKey as string;
    const stored = async () => openSecret({ auth: AUTH }, SHOP, await sealed());
    const first = await sealed();

    const kept = await call('PUT', `${path}/${created.data.id}`, { data: { ...created.data.data, appKey: 'k2' }, version: created.data.version });
    expect(kept.status).toBe(200);
    expect(await stored()).toBe('first-secret');
    // The mask kept the very sealed value, not a new sealing of it.
    expect(await sealed()).toBe(first);

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

  it('seals secrets stored in plain text before sealing, and moves sealed ones onto a new first key', async () => {
    const { call, db } = await makeApp();
    const created = (await (await call('POST', path, { data: { appKey: 'k', secretKey: 'old-plain' } })).json()) as { data: Doc };
    // A row as it was stored before sealing existed.
    await db.updateTable('documents').set({ data: JSON.stringify({ ...created.data.data, secretKey: 'old-plain' }) }).where('id', '=', created.data.id).execute();
    const registry = repoRegistry();
    expect(await sealStoredSecrets({ db, registry, auth: AUTH })).toBe(1);
    const read = async () => JSON.parse((await db.selectFrom('documents').select('data').where('id', '=', created.data.id).executeTakeFirstOrThrow()).data).secretKey as string;
    const resealed = await read();
    expect(resealed.startsWith(SEALED_PREFIX)).toBe(true);
    expect(openSecret({ auth: AUTH }, SHOP, resealed)).toBe('old-plain');
    expect(await sealStoredSecrets({ db, registry, auth: AUTH })).toBe(0);

    // A rotation: a new key first, the old one (derived from the app secret, id "secret") after it.
    const derived = (await import('../../server/platform/access-tokens')).tokenKeys({ auth: AUTH }, {});
    const keys = [{ id: 'k2', key: Buffer.alloc(32, 7) }, ...derived];
    expect(await sealStoredSecrets({ db, registry, auth: AUTH, accessTokens: { keys } })).toBe(2);
    const moved = await read();
    expect(moved.startsWith(`${SEALED_PREFIX}k2:`)).toBe(true);
    expect(openSecret({ auth: AUTH, accessTokens: { keys } }, SHOP, moved)).toBe('old-plain');
    // Once moved, the new key alone opens it.
    expect(openSecret({ auth: AUTH, accessTokens: { keys: keys.slice(0, 1) } }, SHOP, moved)).toBe('old-plain');
  });
});
