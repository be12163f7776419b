/**
 * Wallet passes (spec 002 §1 "wallet passes" integration, §2 "Generate pass wallet"; DESIGN.md
 * "Adapters for everything the platform does for us"): one interface, two implementations.
 * - `LocalWallet` (demo mode, tests, and any shop without Google Wallet connected): the filled pass
 *   as data plus an SVG image of the card to download. Deterministic, no network.
 * - `GoogleWallet`: a "Save to Google Wallet" link, `https://pay.google.com/gp/v/save/<jwt>`, the
 *   JWT signed RS256 with the shop's service account key and carrying one loyalty class and one
 *   loyalty object (Google Wallet API "JWT" reference: iss, aud `google`, typ `savetowallet`, iat,
 *   payload.loyaltyClasses / loyaltyObjects). Building the link needs no network; Google creates
 *   the class and the object when the shopper opens it. Nothing is sent to Google ahead of time,
 *   so an object saved once is not updated later when the balance changes (that needs the REST
 *   API's `loyaltyobject.patch`, not built).
 * Apple Wallet (.pkpass, signed with Apple-issued certificates) is not built.
 */
import { importPKCS8, SignJWT } from 'jose';
import type { FilledWalletPass } from '../../engine/wallet-pass';
import { ApiError } from '../errors';

/** A downloadable pass file: its name, media type and bytes as base64. */
export interface WalletPassFile {
  filename: string;
  mediaType: string;
  base64: string;
}

/** What an adapter answers for one pass. */
export interface WalletPassIssue {
  provider: 'local' | 'google';
  /** The "Save to Google Wallet" link, or null. */
  saveUrl: string | null;
  /** A file to download, or null. */
  file: WalletPassFile | null;
}

/** One pass to issue: the filled pass, whose it is and whose shop. */
export interface WalletPassRequest {
  /** The shop's platform domain (`demo-shop.myshopify.com`). */
  shopId: string;
  /** The shop's name as shoppers know it (the wallet's issuer name). */
  shopName: string;
  pass: FilledWalletPass;
  /** When the pass is issued (the JWT's `iat`). */
  issuedAt: Date;
}

/** The adapter: issues one customer's pass. Throws ApiError 409 when the shop's settings cannot issue it. */
export interface WalletAdapter {
  readonly provider: WalletPassIssue['provider'];
  issue(request: WalletPassRequest): Promise<WalletPassIssue>;
}

const escapeXml = (s: string): string => s.replace(/[<>&"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
const clip = (s: string, max: number): string => (s.length > max ? `${s.slice(0, max - 1)}…` : s);

/**
 * The pass as an SVG card, 360 px wide: the title (and logo at 30 × 30 px) in the header, then
 * each row's label over its value on the left and on the right. Long texts are cut with "…".
 */
export function passSvg(pass: FilledWalletPass): string {
  const width = 360;
  const height = 72 + pass.rows.length * 56 + 16;
  const { background, foreground, label } = pass.colors;
  const text = (x: number, y: number, value: string, color: string, size: number, anchor = 'start', weight = 'normal') =>
    `<text x="${x}" y="${y}" fill="${color}" font-size="${size}" font-weight="${weight}" text-anchor="${anchor}" font-family="Helvetica, Arial, sans-serif">${escapeXml(value)}</text>`;
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="${escapeXml(pass.header.title)}">`,
    `<rect width="${width}" height="${height}" rx="16" fill="${background}"/>`,
    pass.header.logo ? `<image href="${escapeXml(pass.header.logo)}" x="20" y="21" width="30" height="30"/>` : '',
    text(pass.header.logo ? 60 : 20, 42, clip(pass.header.title, 28), foreground, 18, 'start', 'bold'),
  ];
  pass.rows.forEach((row, i) => {
    const y = 72 + i * 56;
    parts.push(text(20, y + 16, clip(row.left.label, 22), label, 11), text(20, y + 36, clip(row.left.value, 22), foreground, 15, 'start', 'bold'));
    parts.push(text(width - 20, y + 16, clip(row.right.label, 22), label, 11, 'end'), text(width - 20, y + 36, clip(row.right.value, 22), foreground, 15, 'end', 'bold'));
  });
  parts.push('</svg>');
  return parts.filter(Boolean).join('');
}

/** The local adapter: the pass as an SVG card to download (`wallet-pass-<customer id>.svg`). */
export class LocalWallet implements WalletAdapter {
  readonly provider = 'local' as const;

  issue(request: WalletPassRequest): Promise<WalletPassIssue> {
    const svg = passSvg(request.pass);
    return Promise.resolve({
      provider: this.provider,
      saveUrl: null,
      file: { filename: `wallet-pass-${request.pass.customerId}.svg`, mediaType: 'image/svg+xml', base64: Buffer.from(svg, 'utf8').toString('base64') },
    });
  }
}

/** The fields of a Google Cloud service account JSON key file this app uses. */
export interface ServiceAccountKey {
  client_email: string;
  private_key: string;
  /** The key's id, sent as the JWT header's `kid` when present. */
  private_key_id?: string;
}

/**
 * The service account key from the JSON key file's text.
 * @throws ApiError 409 `google_wallet_key_invalid` when it is not JSON with `client_email` and a PEM `private_key`
 */
export function parseServiceAccountKey(text: string): ServiceAccountKey {
  let key: unknown;
  try {
    key = JSON.parse(text);
  } catch {
    key = null;
  }
  const k = (key ?? {}) as Record<string, unknown>;
  if (typeof k.client_email !== 'string' || !k.client_email.includes('@') || typeof k.private_key !== 'string' || !k.private_key.includes('PRIVATE KEY')) {
    throw new ApiError(409, 'google_wallet_key_invalid', 'The Google Wallet service account key is not a JSON key file with client_email and private_key');
  }
  return { client_email: k.client_email, private_key: k.private_key, ...(typeof k.private_key_id === 'string' ? { private_key_id: k.private_key_id } : {}) };
}

/** Google object and class ids allow letters, digits, `.`, `_` and `-` after `<issuer id>.`. */
const idPart = (s: string): string => s.replace(/[^A-Za-z0-9._-]/g, '_');

/** Where a signed pass JWT is opened to save the pass. */
export const GOOGLE_SAVE_URL = 'https://pay.google.com/gp/v/save/';

/**
 * The claims of the "Save to Google Wallet" JWT for one pass (minimal, Google Wallet API "JWT"
 * and "LoyaltyClass"/"LoyaltyObject" references):
 * - the class `<issuer>.loyalty_<shop>`: issuerName, programName (the pass title), programLogo
 *   (the 30 × 30 logo, which Google requires), hexBackgroundColor, reviewStatus `UNDER_REVIEW`;
 * - the object `<issuer>.<shop>_<customer id>`: state `ACTIVE`, accountId (customer id),
 *   accountName, loyaltyPoints (balance in whole points, labelled "Points"), and one
 *   textModulesData entry (header = label, body = value) per non-empty row side, in order.
 * `iat` is in seconds. `origins` is empty: the link is opened directly, not through Google's button script.
 */
export function googleSaveClaims(request: WalletPassRequest, issuerId: string, serviceAccountEmail: string): Record<string, unknown> {
  const { pass } = request;
  const classId = `${issuerId}.loyalty_${idPart(request.shopId)}`;
  const textModulesData = pass.rows.flatMap((row, i) =>
    (['left', 'right'] as const)
      .map((side) => ({ side, cell: row[side] }))
      .filter(({ cell }) => cell.field !== 'none')
      .map(({ side, cell }) => ({ id: `row${i + 1}_${side}`, header: cell.label || ' ', body: cell.value })),
  );
  return {
    iss: serviceAccountEmail,
    aud: 'google',
    typ: 'savetowallet',
    iat: Math.floor(request.issuedAt.getTime() / 1000),
    origins: [],
    payload: {
      loyaltyClasses: [
        {
          id: classId,
          issuerName: request.shopName,
          programName: pass.header.title,
          ...(pass.header.logo ? { programLogo: { sourceUri: { uri: pass.header.logo } } } : {}),
          hexBackgroundColor: pass.colors.background,
          reviewStatus: 'UNDER_REVIEW',
        },
      ],
      loyaltyObjects: [
        {
          id: `${issuerId}.${idPart(request.shopId)}_${idPart(pass.customerId)}`,
          classId,
          state: 'ACTIVE',
          accountId: pass.customerId,
          accountName: pass.accountName,
          loyaltyPoints: { label: 'Points', balance: { int: pass.points } },
          textModulesData,
        },
      ],
    },
  };
}

/** The Google Wallet adapter for one shop: its issuer id and service account key. */
export class GoogleWallet implements WalletAdapter {
  readonly provider = 'google' as const;

  constructor(private readonly options: { issuerId: string; key: ServiceAccountKey }) {}

  /**
   * The save link for `request`.
   * @throws ApiError 409 `wallet_pass_logo_missing` when the design has no logo (Google requires a program logo),
   *   409 `google_wallet_key_invalid` when the private key cannot be read as a PKCS #8 RSA key
   */
  async issue(request: WalletPassRequest): Promise<WalletPassIssue> {
    if (!request.pass.header.logo) throw new ApiError(409, 'wallet_pass_logo_missing', 'Add a logo to the wallet pass: Google Wallet needs one');
    let signingKey: CryptoKey;
    try {
      signingKey = await importPKCS8(this.options.key.private_key, 'RS256');
    } catch {
      throw new ApiError(409, 'google_wallet_key_invalid', 'The Google Wallet service account private key cannot be read');
    }
    const claims = googleSaveClaims(request, this.options.issuerId, this.options.key.client_email);
    const jwt = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'RS256', typ: 'JWT', ...(this.options.key.private_key_id ? { kid: this.options.key.private_key_id } : {}) })
      .sign(signingKey);
    return { provider: this.provider, saveUrl: `${GOOGLE_SAVE_URL}${jwt}`, file: null };
  }
}
