import { useState, type Dispatch, type SetStateAction } from 'react';
import type { StoredDocument } from '../../engine/types';
import { ApiError } from '../api/client';
import { api } from '../api/endpoints';
import { t } from '../i18n';
import { useToast } from '../state/toasts';

/** A listed document whose `data.status` turns it on and off (programs also carry `status` on the row). */
type Toggleable = StoredDocument & { status?: boolean };

/**
 * The on/off switch of list rows: flips at once, sends the whole document with the version it read,
 * and rolls back with the server's message when refused. A limit (409) or plan gate (403) also
 * stays on the list as `refusal`, for a banner (spec 001 §4 limits, spec 000 §6 gates).
 * @example const { pending, toggle, refusal } = useStatusToggle(programs.setData, programTitle);
 */
export function useStatusToggle<T extends Toggleable>(setRows: Dispatch<SetStateAction<T[] | undefined>>, titleOf: (row: T) => string) {
  const [pending, setPending] = useState<ReadonlySet<string>>(new Set());
  const [refusal, setRefusal] = useState<string | null>(null);
  const toast = useToast();

  const replaceRow = (row: T) => setRows((rows) => rows?.map((r) => (r.id === row.id ? row : r)));
  const setRowPending = (id: string, on: boolean) =>
    setPending((current) => {
      const next = new Set(current);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });

  async function toggle(row: T) {
    const status = row.data.status !== true;
    // A program row also carries `status` beside its data; keep the two in step.
    const rowStatus = 'status' in row ? { status } : {};
    const flipped: T = { ...row, data: { ...row.data, status }, ...rowStatus };
    replaceRow(flipped);
    setRowPending(row.id, true);
    setRefusal(null);
    try {
      const saved = await api.updateDoc(row.kind, row.id, flipped.data, row.version);
      replaceRow({ ...flipped, ...saved, ...rowStatus });
      toast(t(status ? 'programs.turnedOn' : 'programs.turnedOff', { title: titleOf(row) }));
    } catch (error) {
      replaceRow(row);
      if (error instanceof ApiError && (error.status === 409 || error.status === 403)) setRefusal(error.message);
      toast(error instanceof ApiError ? error.message : t('common.genericError'), 'error');
    } finally {
      setRowPending(row.id, false);
    }
  }

  return { pending, toggle, refusal, dismissRefusal: () => setRefusal(null) };
}
