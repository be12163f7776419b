/**
 * Signed, expiring download links of e-mailed customer exports too large to attach (spec 002 §2
 * "Exports are emailed as CSV"): `<origin>/exports/<id>/customers.csv?expires=<unix seconds>&signature=<hex>`,
 * the signature an HMAC-SHA256 of the export id and the expiry under the app's secret. The link is
 * the only credential (the recipient may open it outside the admin), so it is unguessable, bound to
 * one export and stops working at `expires`.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** How long a download link works: 7 days, in seconds. */
export const EXPORT_LINK_TTL_SECONDS = 7 * 24 * 60 * 60;

const signatureOf = (secret: string, id: string, expires: number): string => createHmac('sha256', secret).update(`customer-export:${id}:${expires}`).digest('hex');

/** The download link of export `id`, working until `expiresAt`. */
export function signedExportLink(origin: string, secret: string, id: string, expiresAt: Date): string {
  const expires = Math.floor(expiresAt.getTime() / 1000);
  return `${origin.replace(/\/$/, '')}/exports/${encodeURIComponent(id)}/customers.csv?expires=${expires}&signature=${signatureOf(secret, id, expires)}`;
}

/** What a link's query says: `valid`, `expired` (signature right, time past) or `invalid`. */
export function checkExportLink(secret: string, id: string, expiresParam: string | undefined, signature: string | undefined, now: Date): 'valid' | 'expired' | 'invalid' {
  if (!expiresParam || !/^\d{1,12}$/.test(expiresParam) || !signature || !/^[0-9a-f]{64}$/.test(signature)) return 'invalid';
  const expires = Number(expiresParam);
  const expected = Buffer.from(signatureOf(secret, id, expires), 'hex');
  if (!timingSafeEqual(expected, Buffer.from(signature, 'hex'))) return 'invalid';
  return now.getTime() / 1000 > expires ? 'expired' : 'valid';
}
