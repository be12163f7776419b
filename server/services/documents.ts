/**
 * Creating, updating and deleting documents of any kind: schema validation (422 with field paths),
 * cross-field rules (422), limits (409 with the rule's code and the spec's wording), optimistic
 * versions (409 `version_conflict`). Limit check and write happen in one transaction.
 */
import { crossFieldIssues } from '../../engine/cross-field';
import { AUTOMATIC_DISCOUNT_FAMILIES, checkLimits, LIMITED_KINDS } from '../../engine/limits';
import type { KindEntry } from '../../engine/registry';
import type { JsonObject, StoredDocument } from '../../engine/types';
import type { AppDeps } from '../deps';
import { ApiError, notFound } from '../errors';
import { checkGate } from '../../engine/gates';
import { findShop } from '../store/shops';
import { shopContext } from './shop-context';
import { keepWriteOnly, maskWithoutSecret, redactWriteOnly } from '../../engine/write-only';
import { deleteDocument, findDocument, insertDocument, listDocuments, updateDocument } from '../store/documents';
import { assertProgramChange } from './program-locks';
import { assertFieldGates } from './field-gates';
import { sealWriteOnly } from './sealed-secrets';


/** The registered kind, or ApiError 404 `unknown_kind`. */
export function kindOrThrow(deps: AppDeps, kindId: string): KindEntry {
  const kind = deps.registry.get(kindId);
  if (!kind) throw notFound('unknown_kind', `Unknown kind "${kindId}"`);
  return kind;
}

/**
 * A document as the API answers it: write-only values (secrets) masked. Every route that returns a
 * document passes it through here.
 */
export function publicDocument(deps: AppDeps, doc: StoredDocument): StoredDocument {
  const paths = deps.registry.get(doc.kind)?.writeOnly ?? [];
  return paths.length === 0 ? doc : { ...doc, data: redactWriteOnly(doc.data, paths) };
}

/** 422 when a write-only field still holds the mask but nothing is stored behind it. */
function assertNoBareMask(kind: KindEntry, data: JsonObject): void {
  const paths = maskWithoutSecret(data, kind.writeOnly);
  if (paths.length > 0) throw new ApiError(422, 'validation_failed', 'Some fields need attention', paths.map((path) => ({ path, message: 'This field is required' })));
}

/** Valid data with defaults applied, or ApiError 422 `validation_failed` with every field issue. */
export function validateOrThrow(kind: KindEntry, body: unknown): JsonObject {
  const outcome = kind.validate(body);
  if (!outcome.ok) throw new ApiError(422, 'validation_failed', 'Some fields need attention', outcome.issues);
  const cross = crossFieldIssues(kind.id, outcome.data);
  if (cross.length > 0) throw new ApiError(422, 'validation_failed', 'Some fields need attention', cross);
  return outcome.data;
}

async function assertWithinLimits(deps: AppDeps, tx: AppDeps['db'], shopId: string, kindId: string, id: string | null, data: JsonObject): Promise<void> {
  const shop = await findShop(tx, shopId);
  const kinds: string[] = [...LIMITED_KINDS, ...deps.registry.kinds.filter((k) => AUTOMATIC_DISCOUNT_FAMILIES.includes(k.family)).map((k) => k.id)];
  const existing = await listDocuments(tx, shopId, kinds);
  const violations = await checkLimits({ kind: kindId, id, data }, existing, (deps.now ?? (() => new Date()))(), shop?.iana_timezone ?? 'UTC');
  const first = violations[0];
  if (first) throw new ApiError(409, first.code, first.message, violations.map((v) => ({ path: v.path, message: v.message })));
}

/**
 * Plan gate (spec 001 §6, spec 002 §6): a kind whose template names an `x-feature` the shop's
 * plan lacks cannot be created, nor saved switched on; a paused one may still be edited or
 * turned off. 403 `plan_gate` names the plan that unlocks it.
 */
async function assertPlanAllows(tx: AppDeps['db'], shopId: string, kind: KindEntry, data: JsonObject, isCreate: boolean): Promise<void> {
  if (!kind.feature) return;
  const shop = await findShop(tx, shopId);
  if (!shop) return;
  const answer = await checkGate(kind.feature, shopContext(shop).gate);
  if (answer.allowed || (!isCreate && data.status !== true)) return;
  throw new ApiError(403, 'plan_gate', `${kind.title} is available on the ${answer.unlockPlan ?? 'a higher'} plan. ${answer.reason}`, [{ path: '', message: answer.reason }]);
}

/** Work a document write implies, run in the write's transaction (`tx`) with the stored document. */
export type AfterWrite = (tx: AppDeps['db'], stored: StoredDocument) => Promise<void>;

/**
 * Creates a document after validation and limits; `actor` (the session's user) is recorded with its
 * first version. `afterWrite` runs inside the same transaction with the stored document (a change
 * the document implies, such as the settings' segment rule, commits or fails with it).
 */
export async function createDocument(deps: AppDeps, shopId: string, kind: KindEntry, body: unknown, actor = 'system', afterWrite?: AfterWrite): Promise<StoredDocument> {
  const valid = validateOrThrow(kind, body);
  assertNoBareMask(kind, valid);
  // Secrets are stored sealed (server/services/sealed-secrets.ts); the checks below never read them.
  const data = sealWriteOnly(deps, shopId, valid, kind.writeOnly);
  const now = (deps.now ?? (() => new Date()))().toISOString();
  return deps.db.transaction().execute(async (tx) => {
    if (kind.singleton && (await listDocuments(tx, shopId, [kind.id])).length > 0) {
      throw new ApiError(409, 'singleton_exists', `${kind.title} already exists for this shop; edit it instead.`);
    }
    await assertPlanAllows(tx, shopId, kind, data, true);
    await assertFieldGates(tx, shopId, kind, null, data);
    assertProgramChange(kind.id, null, data);
    await assertWithinLimits(deps, tx, shopId, kind.id, null, data);
    const stored = await insertDocument(tx, shopId, kind.id, kind.version, data, now, actor);
    await afterWrite?.(tx, stored);
    return stored;
  });
}

/**
 * Replaces a document's data at `expectedVersion` after validation and limits. Write-only values
 * sent back as WRITE_ONLY_MASK keep their stored value. The new version's row (document_versions)
 * is written in the same transaction, with `actor` (the session's user); so is `afterWrite`.
 */
export async function replaceDocument(deps: AppDeps, shopId: string, kind: KindEntry, id: string, expectedVersion: unknown, body: unknown, actor = 'system', afterWrite?: AfterWrite): Promise<StoredDocument> {
  if (typeof expectedVersion !== 'number' || !Number.isInteger(expectedVersion)) {
    throw new ApiError(422, 'validation_failed', 'Some fields need attention', [{ path: '/version', message: 'This field is required' }]);
  }
  const validated = validateOrThrow(kind, body);
  const now = (deps.now ?? (() => new Date()))().toISOString();
  return deps.db.transaction().execute(async (tx) => {
    const current = await findDocument(tx, shopId, id);
    if (!current || current.kind !== kind.id) throw notFound('not_found', 'This document does not exist or was deleted');
    // A new secret is stored sealed (server/services/sealed-secrets.ts); one sent back as the mask
    // was not changed: keep the stored one.
    const data = keepWriteOnly(sealWriteOnly(deps, shopId, validated, kind.writeOnly), current.data, kind.writeOnly);
    assertNoBareMask(kind, data);
    if (current.version !== expectedVersion) throw new ApiError(409, 'version_conflict', 'Someone else saved this document. Reload to see their changes.');
    await assertPlanAllows(tx, shopId, kind, data, false);
    await assertFieldGates(tx, shopId, kind, current.data, data);
    assertProgramChange(kind.id, current.data, data);
    await assertWithinLimits(deps, tx, shopId, kind.id, id, data);
    const updated = await updateDocument(tx, shopId, id, expectedVersion, data, kind.version, now, actor);
    if (!updated) throw new ApiError(409, 'version_conflict', 'Someone else saved this document. Reload to see their changes.');
    await afterWrite?.(tx, updated);
    return updated;
  });
}

/** Deletes a document of `kind`; 404 when it does not exist. */
export async function removeDocument(deps: AppDeps, shopId: string, kind: KindEntry, id: string): Promise<void> {
  const current = await findDocument(deps.db, shopId, id);
  if (!current || current.kind !== kind.id) throw notFound('not_found', 'This document does not exist or was deleted');
  await deleteDocument(deps.db, shopId, id);
}
