/**
 * The export e-mail's words (spec 002 §2 "Exports are emailed as CSV", spec 000 §Languages): the
 * shop's in-app language picks them; counts in that language's grouping; the attached and the
 * linked variants.
 */
import { describe, expect, it } from 'vitest';
import { exportMail, mailLanguage } from '../../server/services/customer-export/messages';

describe('the export e-mail', () => {
  it('names the count and the scope in English, with the file attached', () => {
    const mail = exportMail({ rows: 1250, query: { tab: 'member', search: 'am' }, fileName: 'customers-member-2026-11-27.csv' }, 'en');
    expect(mail.subject).toBe('Your customer export: 1,250 customers (tab Member, search "am")');
    expect(mail.text).toBe('Hello,\n\nAttached is the customer export you asked for: 1,250 customers (tab Member, search "am").\n\nThe file is customers-member-2026-11-27.csv, UTF-8 CSV, one customer a line.\n');
    expect(exportMail({ rows: 1, query: { tab: 'all', ids: ['a'] }, fileName: 'c.csv' }, 'en').subject).toBe('Your customer export: 1 customer (tab All, 1 selected customers)');
  });

  it("is written in the shop's language, numbers grouped its way", () => {
    expect(exportMail({ rows: 1250, query: { tab: 'member' }, fileName: 'c.csv' }, 'fr').subject).toBe('Votre export de clients : 1\u202f250 clients (onglet Membres)');
    expect(exportMail({ rows: 1250, query: { tab: 'guest' }, fileName: 'c.csv' }, 'de').subject).toBe('Ihr Kundenexport: 1.250 Kunden (Tab Gäste)');
    expect(exportMail({ rows: 3, query: { tab: 'all' }, fileName: 'c.csv' }, 'ja').text).toContain('ご依頼の顧客エクスポートを添付します: 3 人の顧客 (タブ「すべて」)');
  });

  it('gives the size, the link and its expiry when the file is too large to attach', () => {
    const url = 'https://app.example/exports/e1/customers.csv?expires=1&signature=abc';
    const mail = exportMail({ rows: 350_000, query: { tab: 'all' }, fileName: 'c.csv', link: { bytes: 23_592_960, url, expiresAt: new Date('2026-12-04T10:00:00Z') } }, 'en');
    expect(mail.text).toBe(`Hello,\n\nYour customer export is ready: 350,000 customers (tab All).\n\nThe file is 22.5 MB, too large to attach. Download it until December 4, 2026 at 10:00:00 AM UTC:\n${url}\n`);
    expect(exportMail({ rows: 2, query: { tab: 'all' }, fileName: 'c.csv', link: { bytes: 11_000_000, url, expiresAt: new Date('2026-12-04T10:00:00Z') } }, 'fr').text).toContain('10,5 Mo');
  });

  it("takes the shop's primaryLanguageInApp, English for en-US and anything else", () => {
    expect(mailLanguage('it')).toBe('it');
    expect(mailLanguage('en-US')).toBe('en');
    expect(mailLanguage('xx')).toBe('en');
    expect(mailLanguage(undefined)).toBe('en');
  });
});
