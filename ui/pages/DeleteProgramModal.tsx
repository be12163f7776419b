import { useState } from 'react';
import { ApiError } from '../api/client';
import { api } from '../api/endpoints';
import { Modal } from '../components/Modal';
import { useT } from '../i18n';
import { useToast } from '../state/toasts';

export interface DeleteTarget {
  id: string;
  kind: string;
  title: string;
}

/** Confirms and deletes a program; open while `program` is set. */
export interface DeleteProgramModalProps {
  program: DeleteTarget | null;
  onClose: () => void;
  onDeleted: (id: string) => void;
  /** The success toast; "Program deleted" unless told. */
  deletedMessage?: string;
}

export function DeleteProgramModal({ program, onClose, onDeleted, deletedMessage }: DeleteProgramModalProps) {
  const t = useT();
  const [busy, setBusy] = useState(false);
  const toast = useToast();

  async function confirm() {
    if (!program) return;
    setBusy(true);
    try {
      await api.deleteDoc(program.kind, program.id);
      toast(deletedMessage ?? t('programs.deleted'));
      onClose();
      onDeleted(program.id);
    } catch (error) {
      toast(error instanceof ApiError ? error.message : t('common.genericError'), 'error');
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal
      open={program !== null}
      title={t('programs.deleteTitle', { title: program?.title ?? '' })}
      onClose={onClose}
      primaryAction={{ label: t('common.delete'), destructive: true, loading: busy, onAction: confirm }}
    >
      <p>{t('programs.deleteBody')}</p>
    </Modal>
  );
}
