import type { StoredDocument } from '../../../engine/types';
import { request } from '../../api/client';

/** How the storefront picks the shopper's language (spec 001 §3 Translation). */
export type DetectMethod = 'browser_language' | 'customer_ip';

/** A shop's translation as `GET /api/translation` answers it in `data` (server/services/translations.ts). */
export interface Translation {
  primaryLanguage: string;
  detectMethod: DetectMethod;
  additionalLanguages: string[];
  /** The merchant's texts: language → variant → key → text. */
  content: Record<string, Record<string, Record<string, string>>>;
}

/** A variant in the list of `GET /api/translation`. */
export interface VariantSummary {
  id: string;
  title: string;
  description: string;
  links: { label: string; to: string }[];
  textCount: number;
}

/** One editable text of a variant. */
export interface VariantField {
  key: string;
  label: string;
  /** The `{{names}}` the English text holds, sorted; a translation keeps exactly these. */
  placeholders: string[];
}

/** A variant with its tabs, as `GET /api/translation?type=` answers it. */
export interface VariantDetail {
  id: string;
  title: string;
  description: string;
  links: { label: string; to: string }[];
  programNames: boolean;
  /** Storefront language → the code a program's name is saved under in its `translateTitle` (`he` → `he-IL`); absent when none. */
  programNameLanguages: Record<string, string>;
  tabs: { id: string; title: string; fields: VariantField[] }[];
}

/** The answer of `GET /api/translation` (with `variant` and `defaults` when a type was asked). */
export interface TranslationAnswer {
  data: Translation;
  version: number;
  variants: VariantSummary[];
  /** Storefront language codes. */
  languages: string[];
  variant?: VariantDetail;
  /** Shipped text of every key, per storefront language. */
  defaults?: Record<string, Record<string, string>>;
}

/** A program as `GET /api/lp/programs/earning|spending` lists it. */
export type ProgramRow = StoredDocument & { type: 'earning' | 'spending'; event: string; title: string; status: boolean };

/** The translation editor's calls (spec 001 §7). Errors are ApiError with the server's field paths. */
export const translationApi = {
  /** `language`: the in-app language the titles and labels come in (`en` for English). */
  get: (type: string | undefined, language: string) => {
    const query = new URLSearchParams();
    if (type) query.set('type', type);
    if (language !== 'en') query.set('language', language);
    const search = query.toString();
    return request<TranslationAnswer>(`/api/translation${search ? `?${search}` : ''}`);
  },
  save: (translation: Translation, version: number) =>
    request<{ data: Translation; version: number; message: string }>('/api/translation', { method: 'POST', body: { ...translation, version } }),
  programs: async (type: 'earning' | 'spending') => (await request<{ data: ProgramRow[] }>(`/api/lp/programs/${type}`)).data,
  /** Saves a program's names per language through the documents API (the whole document, its version). */
  saveProgramNames: (program: ProgramRow, translateTitle: Record<string, string>) =>
    request<{ data: StoredDocument }>(`/api/kinds/${encodeURIComponent(program.kind)}/docs/${encodeURIComponent(program.id)}`, {
      method: 'PUT',
      body: { data: { ...program.data, translateTitle }, version: program.version },
    }),
};

const PLACEHOLDER = /\{\{\s*([^{}\s]+)\s*\}\}/g;

/** The `{{name}}` placeholders of a text, unique and sorted (as the server reads them). */
export function placeholdersOf(text: string): string[] {
  return [...new Set([...text.matchAll(PLACEHOLDER)].map((m) => m[1] as string))].sort();
}

/** The language's name in `uiLanguage` ("French" for `fr` in English), the code when the browser does not know it. */
export function languageName(code: string, uiLanguage: string): string {
  try {
    return new Intl.DisplayNames([uiLanguage, 'en'], { type: 'language' }).of(code) ?? code;
  } catch {
    return code;
  }
}
