/**
 * Security headers (issue 14): every response says `X-Content-Type-Options: nosniff`; every HTML
 * page carries a Content-Security-Policy whose `frame-ancestors` lets only the platform's admin
 * frame the embedded app (the shop's own admin and the unified admin), and nobody frame the
 * standalone one. Frames may load the app itself and the guide video's host (spec 000 §2 "a guide
 * video modal (16:9)"), nothing else.
 */
import type { MiddlewareHandler } from 'hono';
import guideVideo from '../ui/areas/dashboard/guide-video.json';
import { isShopDomain } from './auth';

/** The platform's unified admin, which frames embedded apps. */
export const PLATFORM_ADMIN_ORIGIN = 'https://admin.shopify.com';

/**
 * The origin of a guide video address (ui/areas/dashboard/guide-video.json `url`), the one outside
 * host the admin frames.
 * @throws Error for an address that is not https (a misconfigured file stops the server at start)
 */
export function guideVideoOrigin(url: string): string {
  const parsed = new URL(url);
  if (parsed.protocol !== 'https:') throw new Error(`ui/areas/dashboard/guide-video.json: the url must be https, got ${url}`);
  return parsed.origin;
}

/** The guide video's origin, e.g. `https://www.youtube-nocookie.com`; null while no video is configured. */
const GUIDE_VIDEO_URL = (guideVideo as { url: string | null }).url;
export const GUIDE_VIDEO_ORIGIN: string | null = GUIDE_VIDEO_URL ? guideVideoOrigin(GUIDE_VIDEO_URL) : null;

/**
 * The CSP for an admin page at `path` with the `shop` query parameter (may be absent). Embedded
 * pages (`/embed…`) may be framed by that shop's admin (any shop's when the parameter is missing
 * or not a shop domain) and the unified admin; the widget preview (`/widget/preview`) by the app
 * itself as well; other pages by no one. Frames load the app itself and `videoOrigin` (the
 * configured guide video's, none while there is no video).
 */
export function contentSecurityPolicy(path: string, shop: string | undefined, videoOrigin: string | null = GUIDE_VIDEO_ORIGIN): string {
  const embedded = path === '/embed' || path.startsWith('/embed/');
  const shopOrigin = shop && isShopDomain(shop.toLowerCase()) ? `https://${shop.toLowerCase()}` : 'https://*.myshopify.com';
  // The widget's live preview is framed by the admin itself (which may sit in the platform's admin).
  const preview = path === '/widget/preview';
  const ancestors = preview ? `'self' ${shopOrigin} ${PLATFORM_ADMIN_ORIGIN}` : embedded ? `${shopOrigin} ${PLATFORM_ADMIN_ORIGIN}` : "'none'";
  return [
    "default-src 'self'",
    // Scripts only from the app itself. 'unsafe-eval' because the form validator (ajv, through
    // @rjsf/validator-ajv8) compiles each kind's schema to a function in the browser; precompiled
    // validators would let it go.
    "script-src 'self' 'unsafe-eval'",
    // React and the design system set element styles through the CSSOM; 'unsafe-inline' keeps
    // style attributes working without letting any script in.
    "style-src 'self' 'unsafe-inline'",
    // Product and reward images come from the platform's CDN and merchant uploads.
    "img-src 'self' data: blob: https:",
    "font-src 'self' data:",
    "connect-src 'self'",
    // Frames: the widget preview (the app itself) and the guide video's host only.
    videoOrigin ? `frame-src 'self' ${videoOrigin}` : "frame-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    `frame-ancestors ${ancestors}`,
  ].join('; ');
}

/** The headers every answer carries, whatever its type (HTML pages add the CSP). */
export const BASE_SECURITY_HEADERS: Readonly<Record<string, string>> = { 'X-Content-Type-Options': 'nosniff', 'Referrer-Policy': 'strict-origin-when-cross-origin' };

/** Sets BASE_SECURITY_HEADERS on `headers`. */
export function setBaseSecurityHeaders(headers: Headers): void {
  for (const name in BASE_SECURITY_HEADERS) headers.set(name, BASE_SECURITY_HEADERS[name]!);
}

/** Adds nosniff and a referrer policy to every response, and the CSP to HTML ones. */
export function securityHeaders(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    setBaseSecurityHeaders(c.res.headers);
    if ((c.res.headers.get('Content-Type') ?? '').startsWith('text/html')) {
      c.res.headers.set('Content-Security-Policy', contentSecurityPolicy(c.req.path, c.req.query('shop')));
    }
  };
}
