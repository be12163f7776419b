/**
 * Write-only document values (JSON Schema `writeOnly: true`: an integration's secret key, the
 * Google Wallet service-account key; engine/write-only.ts) are stored sealed: AES-256-GCM with the
 * same keys as the shops' access tokens (`ACCESS_TOKEN_KEYS`, server/platform/access-tokens.ts) and
 * the shop id as associated data, in the document and in its version rows. A stored value reads
 * `sealed:v1:<key id>:<iv>.<tag>.<data>`; the code that uses a secret opens it with `openSecret`.
 * Values stored before sealing (plain text) still read as they are and are sealed by
 * `sealStoredSecrets`, which also moves sealed values onto the first key (the end of a rotation).
 */
import { mapWriteOnly, WRITE_ONLY_MASK } from '../../engine/write-only';
import type { JsonObject } from '../../engine/types';
import type { AppDeps } from '../deps';
import { decryptToken, encryptToken, tokenKeys } from '../platform/access-tokens';

/** Prefix of a sealed value. */
export const SEALED_PREFIX = 'sealed:v1:';

type Keys = Pick<AppDeps, 'accessTokens' | 'auth'>;

/** `secret` sealed for `shopId` with the first key. */
export function sealSecret(deps: Keys, shopId: string, secret: string): string {
  const { keyId, ciphertext } = encryptToken(tokenKeys(deps), shopId, secret);
  return `${SEALED_PREFIX}${keyId}:${ciphertext}`;
}

/**
 * The plain text of a stored write-only value: a sealed one decrypted, a value stored before
 * sealing as it is. Null for a missing or empty value, or a sealed one no configured key opens
 * (its key was dropped, or it was copied from another shop).
 */
export function openSecret(deps: Keys, shopId: string, stored: unknown): string | null {
  if (typeof stored !== 'string' || stored === '') return null;
  if (!stored.startsWith(SEALED_PREFIX)) return stored;
  const rest = stored.slice(SEALED_PREFIX.length);
  const colon = rest.indexOf(':');
  if (colon <= 0) return null;
  return decryptToken(tokenKeys(deps), shopId, rest.slice(0, colon), rest.slice(colon + 1));
}

/**
 * A copy of `incoming` (a validated write, before the stored secrets are kept for masks) with each
 * write-only string sealed; the mask and empty values stay as they are. Every value a merchant
 * sends is sealed, whatever it looks like.
 */
export function sealWriteOnly(deps: Keys, shopId: string, incoming: JsonObject, paths: readonly (readonly string[])[]): JsonObject {
  return mapWriteOnly(incoming, paths, (value) => (value === '' || value === WRITE_ONLY_MASK ? undefined : sealSecret(deps, shopId, value))) ?? incoming;
}

/** `data` with every write-only value that is plain text or sealed with another key than the first sealed anew; null when nothing changes. */
function resealed(deps: Keys, shopId: string, data: JsonObject, paths: readonly (readonly string[])[]): JsonObject | null {
  const current = `${SEALED_PREFIX}${tokenKeys(deps)[0]?.id}:`;
  return mapWriteOnly(data, paths, (value) => {
    if (value === '' || value.startsWith(current)) return undefined;
    const plain = openSecret(deps, shopId, value);
    return plain === null ? undefined : sealSecret(deps, shopId, plain);
  });
}

/**
 * Seals every write-only value still stored in plain text, and moves every sealed one onto the
 * first key, in the documents and their version rows (run after upgrading, and at the end of a key
 * rotation before the old key is dropped). Values no key opens are left as they are.
 * @returns how many rows (documents and versions) were rewritten
 */
export async function sealStoredSecrets(deps: Pick<AppDeps, 'db' | 'registry' | 'accessTokens' | 'auth'>): Promise<number> {
  const kinds = deps.registry.kinds.filter((kind) => kind.writeOnly.length > 0);
  let rewritten = 0;
  for (const kind of kinds) {
    const documents = await deps.db.selectFrom('documents').select(['shop_id', 'id', 'data']).where('kind', '=', kind.id).execute();
    for (const row of documents) {
      const next = resealed(deps, row.shop_id, JSON.parse(row.data) as JsonObject, kind.writeOnly);
      if (!next) continue;
      await deps.db.updateTable('documents').set({ data: JSON.stringify(next) }).where('shop_id', '=', row.shop_id).where('id', '=', row.id).execute();
      rewritten += 1;
    }
    const versions = await deps.db.selectFrom('document_versions').select(['shop_id', 'document_id', 'version', 'data']).where('kind', '=', kind.id).execute();
    for (const row of versions) {
      const next = resealed(deps, row.shop_id, JSON.parse(row.data) as JsonObject, kind.writeOnly);
      if (!next) continue;
      await deps.db
        .updateTable('document_versions')
        .set({ data: JSON.stringify(next) })
        .where('shop_id', '=', row.shop_id)
        .where('document_id', '=', row.document_id)
        .where('version', '=', row.version)
        .execute();
      rewritten += 1;
    }
  }
  return rewritten;
}
