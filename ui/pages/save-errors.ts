import { ApiError } from '../api/client';
import type { FieldIssue } from '../../engine/types';
import { t } from '../i18n';

/** How the editor presents a failed save. */
export interface SaveFailure {
  /** Field issues to show on their fields (422). */
  issues: FieldIssue[];
  /** A critical banner at the top of the form. */
  banner?: { title: string; messages: string[]; reload?: boolean };
  /** An error toast, for a failure shown nowhere else (never beside the banner: an error shows once). */
  toast?: string;
}

/**
 * Field issues shown the way a 422 is: each on its field, whole-document ones (path `""`) in the
 * banner under `title`. Used for the server's answer and for the form's own cross-field check.
 */
export function validationFailure(issues: FieldIssue[], title: string): SaveFailure {
  const whole = issues.filter((issue) => issue.path === '').map((issue) => issue.message);
  return { issues, banner: { title, messages: whole } };
}

/**
 * Maps a failed save to what the merchant sees: field errors for `validation_failed`, a reload banner
 * for `version_conflict`, one banner for limits and plan gates (spec 001 §4: "Up to 10
 * place-order programs are allowed.") with any field the limit names marked too, and the server's
 * message as a toast otherwise (spec 000 §8). Each failure shows once: banner or toast, never both.
 */
export function describeSaveFailure(error: unknown): SaveFailure {
  if (!(error instanceof ApiError)) return { issues: [], toast: t('common.genericError') };
  if (error.code === 'validation_failed' || error.status === 422) {
    return validationFailure(error.details, error.message || t('programs.fixErrors'));
  }
  if (error.code === 'singleton_exists') {
    // Another tab or person created the one document first: reload to edit theirs.
    return { issues: [], banner: { title: error.message, messages: [], reload: true } };
  }
  if (error.code === 'version_conflict') {
    return { issues: [], banner: { title: t('programs.conflict'), messages: [], reload: true } };
  }
  if (error.status === 409 || error.status === 403) {
    // A limit that names a field (the tier ladder's duplicate name, a taken priority) shows there too.
    return { issues: error.details.filter((issue) => issue.path !== ''), banner: { title: error.message, messages: [] } };
  }
  return { issues: [], toast: error.message || t('common.genericError') };
}
