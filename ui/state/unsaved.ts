import { atom } from 'jotai';

/**
 * True while a form on screen differs from what was saved (spec 001 §4: the save bar and the leave
 * prompt follow it). The form that owns the changes sets it and clears it when it unmounts.
 */
export const unsavedChangesAtom = atom(false);
