/**
 * Program state rules the schema cannot say (spec 002 §4 States and transitions), checked on every
 * create and replace of a document (server/services/documents.ts):
 * - "Once a streak program is on it is locked against editing": while the stored visit-streak
 *   program is on, a save may only switch it off (409 `program_locked`).
 * - "Flow-trigger and custom-trigger programs can be turned on only after the connection test
 *   succeeds or is skipped (then connected)": a custom program saved on must be `connected`
 *   (409 `connection_required`); the editor sets `connectionStatus` after the connection test
 *   (`POST /api/events/connection-test`, server/routes/events.ts) passed or was skipped.
 * - "The action key is temporary until the program is saved, then permanent": a saved non-empty
 *   action key cannot change (409 `action_key_permanent`).
 * The app has no flow-trigger program kind yet; a future `earning.flow_trigger` template joins the
 * connection rule by adding its kind to CONNECTED_KINDS.
 */
import { isJsonObject, type Json, type JsonObject } from '../../engine/types';
import { ApiError } from '../errors';

/** Kinds that need a passed or skipped connection test before they can be on. */
export const CONNECTED_KINDS: readonly string[] = ['earning.custom_program'];
const STREAK = 'earning.streak_interact_website';

/** JSON text with object keys sorted at every depth, so key order never counts as an edit. */
function canonical(value: Json): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (isJsonObject(value)) return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonical(value[k] as Json)}`).join(',')}}`;
  return JSON.stringify(value);
}

const withoutStatus = (data: JsonObject): string => canonical(Object.fromEntries(Object.entries(data).filter(([k]) => k !== 'status')) as JsonObject);

/**
 * Throws ApiError 409 when saving `next` over `current` (null on create) breaks a state rule of
 * the kind (see the module comment); returns quietly otherwise.
 */
export function assertProgramChange(kindId: string, current: JsonObject | null, next: JsonObject): void {
  if (kindId === STREAK && current?.status === true && withoutStatus(current) !== withoutStatus(next)) {
    throw new ApiError(409, 'program_locked', 'Once a streak program is on it is locked against editing. Turn it off first.', [{ path: '', message: 'Once a streak program is on it is locked against editing' }]);
  }
  if (!CONNECTED_KINDS.includes(kindId)) return;
  if (current && typeof current.actionKey === 'string' && current.actionKey !== '' && next.actionKey !== current.actionKey) {
    throw new ApiError(409, 'action_key_permanent', 'The action key is permanent once the program is saved', [{ path: '/actionKey', message: 'The action key is permanent once the program is saved' }]);
  }
  if (next.status === true && next.connectionStatus !== 'connected') {
    throw new ApiError(409, 'connection_required', 'The program can be turned on only after the connection test succeeds or is skipped', [{ path: '/status', message: 'Run the connection test or skip it first' }]);
  }
}
