/**
 * The export e-mail's words in the admin's in-app languages (spec 000 §Languages; spec 002 §2
 * "Exports are emailed as CSV"): the shop's `primaryLanguageInApp` picks them, English for en-US
 * and anything unknown. Counts are written in the language's own digit grouping; the link's expiry
 * in UTC, in that language.
 */
import { isInAppLanguage, type InAppLanguage } from '../../../engine/i18n';
import type { ExportQuery } from '../customer-import/export';

/** What the e-mail says about one export. */
export interface ExportMail {
  subject: string;
  text: string;
}

/** What the e-mail is about: the rows written, what they are, and the file or its link. */
export interface ExportMailFacts {
  rows: number;
  query: ExportQuery;
  fileName: string;
  /** Present when the file is too large to attach: its size (bytes), the link and when it stops working. */
  link?: { bytes: number; url: string; expiresAt: Date };
}

type Language = Exclude<InAppLanguage, 'en-US'>;

interface Words {
  tabs: Record<string, string>;
  customers: (n: string, one: boolean) => string;
  tab: (name: string) => string;
  search: (text: string) => string;
  selected: (n: string) => string;
  subject: (what: string) => string;
  hello: string;
  attached: (what: string, file: string) => string;
  ready: (what: string, megabytes: string, until: string, url: string) => string;
}

const WORDS: Record<Language, Words> = {
  en: {
    tabs: { all: 'All', member: 'Member', guest: 'Guest', left: 'Left', b2b: 'B2B', left_segment: 'Left segment' },
    customers: (n, one) => `${n} ${one ? 'customer' : 'customers'}`,
    tab: (name) => `tab ${name}`,
    search: (text) => `search "${text}"`,
    selected: (n) => `${n} selected customers`,
    subject: (what) => `Your customer export: ${what}`,
    hello: 'Hello,',
    attached: (what, file) => `Attached is the customer export you asked for: ${what}.\n\nThe file is ${file}, UTF-8 CSV, one customer a line.`,
    ready: (what, mb, until, url) => `Your customer export is ready: ${what}.\n\nThe file is ${mb} MB, too large to attach. Download it until ${until}:\n${url}`,
  },
  fr: {
    tabs: { all: 'Tous', member: 'Membres', guest: 'Invités', left: 'Sortis', b2b: 'B2B', left_segment: 'Segment sorti' },
    customers: (n, one) => `${n} ${one ? 'client' : 'clients'}`,
    tab: (name) => `onglet ${name}`,
    search: (text) => `recherche « ${text} »`,
    selected: (n) => `${n} clients sélectionnés`,
    subject: (what) => `Votre export de clients : ${what}`,
    hello: 'Bonjour,',
    attached: (what, file) => `Voici l'export de clients demandé : ${what}.\n\nLe fichier est ${file}, au format CSV UTF-8, un client par ligne.`,
    ready: (what, mb, until, url) => `Votre export de clients est prêt : ${what}.\n\nLe fichier fait ${mb} Mo, trop lourd pour être joint. Téléchargez-le jusqu'au ${until} :\n${url}`,
  },
  es: {
    tabs: { all: 'Todos', member: 'Miembros', guest: 'Invitados', left: 'Salieron', b2b: 'B2B', left_segment: 'Segmento excluido' },
    customers: (n, one) => `${n} ${one ? 'cliente' : 'clientes'}`,
    tab: (name) => `pestaña ${name}`,
    search: (text) => `búsqueda «${text}»`,
    selected: (n) => `${n} clientes seleccionados`,
    subject: (what) => `Tu exportación de clientes: ${what}`,
    hello: 'Hola:',
    attached: (what, file) => `Adjuntamos la exportación de clientes que pediste: ${what}.\n\nEl archivo es ${file}, CSV en UTF-8, un cliente por línea.`,
    ready: (what, mb, until, url) => `Tu exportación de clientes está lista: ${what}.\n\nEl archivo ocupa ${mb} MB, demasiado para adjuntarlo. Descárgalo hasta el ${until}:\n${url}`,
  },
  de: {
    tabs: { all: 'Alle', member: 'Mitglieder', guest: 'Gäste', left: 'Ausgetreten', b2b: 'B2B', left_segment: 'Ausgeschlossenes Segment' },
    customers: (n, one) => `${n} ${one ? 'Kunde' : 'Kunden'}`,
    tab: (name) => `Tab ${name}`,
    search: (text) => `Suche „${text}“`,
    selected: (n) => `${n} ausgewählte Kunden`,
    subject: (what) => `Ihr Kundenexport: ${what}`,
    hello: 'Hallo,',
    attached: (what, file) => `anbei der angeforderte Kundenexport: ${what}.\n\nDie Datei ist ${file}, CSV in UTF-8, ein Kunde pro Zeile.`,
    ready: (what, mb, until, url) => `Ihr Kundenexport ist fertig: ${what}.\n\nDie Datei ist ${mb} MB groß, zu groß für einen Anhang. Laden Sie sie bis ${until} herunter:\n${url}`,
  },
  it: {
    tabs: { all: 'Tutti', member: 'Membri', guest: 'Ospiti', left: 'Usciti', b2b: 'B2B', left_segment: 'Segmento escluso' },
    customers: (n, one) => `${n} ${one ? 'cliente' : 'clienti'}`,
    tab: (name) => `scheda ${name}`,
    search: (text) => `ricerca «${text}»`,
    selected: (n) => `${n} clienti selezionati`,
    subject: (what) => `La tua esportazione clienti: ${what}`,
    hello: 'Ciao,',
    attached: (what, file) => `in allegato l'esportazione clienti richiesta: ${what}.\n\nIl file è ${file}, CSV in UTF-8, un cliente per riga.`,
    ready: (what, mb, until, url) => `La tua esportazione clienti è pronta: ${what}.\n\nIl file pesa ${mb} MB, troppo per allegarlo. Scaricalo entro il ${until}:\n${url}`,
  },
  ja: {
    tabs: { all: 'すべて', member: '会員', guest: 'ゲスト', left: '退会', b2b: 'B2B', left_segment: '除外セグメント' },
    customers: (n) => `${n} 人の顧客`,
    tab: (name) => `タブ「${name}」`,
    search: (text) => `検索「${text}」`,
    selected: (n) => `選択した ${n} 人の顧客`,
    subject: (what) => `顧客エクスポート: ${what}`,
    hello: 'こんにちは。',
    attached: (what, file) => `ご依頼の顧客エクスポートを添付します: ${what}。\n\nファイルは ${file}（UTF-8 の CSV、1 行に 1 人の顧客）です。`,
    ready: (what, mb, until, url) => `顧客エクスポートの準備ができました: ${what}。\n\nファイルは ${mb} MB で、添付するには大きすぎます。${until} までにダウンロードしてください:\n${url}`,
  },
  id: {
    tabs: { all: 'Semua', member: 'Anggota', guest: 'Tamu', left: 'Keluar', b2b: 'B2B', left_segment: 'Segmen dikecualikan' },
    customers: (n) => `${n} pelanggan`,
    tab: (name) => `tab ${name}`,
    search: (text) => `pencarian "${text}"`,
    selected: (n) => `${n} pelanggan terpilih`,
    subject: (what) => `Ekspor pelanggan Anda: ${what}`,
    hello: 'Halo,',
    attached: (what, file) => `Terlampir ekspor pelanggan yang Anda minta: ${what}.\n\nBerkasnya ${file}, CSV UTF-8, satu pelanggan per baris.`,
    ready: (what, mb, until, url) => `Ekspor pelanggan Anda sudah siap: ${what}.\n\nBerkasnya ${mb} MB, terlalu besar untuk dilampirkan. Unduh sebelum ${until}:\n${url}`,
  },
};

/** The language the e-mail is written in for a shop's `primaryLanguageInApp` (English for en-US and the unknown). */
export function mailLanguage(primaryLanguageInApp: unknown): Language {
  return typeof primaryLanguageInApp === 'string' && isInAppLanguage(primaryLanguageInApp) && primaryLanguageInApp !== 'en-US' ? primaryLanguageInApp : 'en';
}

/**
 * The export e-mail in `language`: the subject names how many customers and which ones (tab,
 * search, selection); the body says the file is attached, or gives its size (MB, one decimal), the
 * signed link and when it stops working.
 * @example exportMail({ rows: 1250, query: { tab: 'member' }, fileName: 'c.csv' }, 'fr').subject // "Votre export de clients : 1 250 clients (onglet Membres)"
 */
export function exportMail(facts: ExportMailFacts, language: Language): ExportMail {
  const words = WORDS[language];
  const number = new Intl.NumberFormat(language);
  const { query } = facts;
  const scope = [words.tab(words.tabs[query.tab] ?? query.tab), ...(query.search ? [words.search(query.search)] : []), ...(query.ids ? [words.selected(number.format(query.ids.length))] : [])].join(', ');
  const what = `${words.customers(number.format(facts.rows), facts.rows === 1)} (${scope})`;
  const body = facts.link
    ? words.ready(
        what,
        new Intl.NumberFormat(language, { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(facts.link.bytes / 1024 / 1024),
        new Intl.DateTimeFormat(language, { dateStyle: 'long', timeStyle: 'long', timeZone: 'UTC' }).format(facts.link.expiresAt),
        facts.link.url,
      )
    : words.attached(what, facts.fileName);
  return { subject: words.subject(what), text: `${words.hello}\n\n${body}\n` };
}
