import type { RouteObject } from 'react-router-dom';
import { BRANDING_PAGES, STOREFRONT_PAGES } from './sections';

const sectionPage = (backTo: string) => (section: (typeof STOREFRONT_PAGES)[number]): RouteObject => ({
  path: `storefront/${section.path}`,
  lazy: () => import('./StorefrontSectionPage').then((m) => ({ Component: () => <m.StorefrontSectionPage section={section} backTo={backTo} /> })),
});

/** The storefront area's screens (spec 000 §2), mounted inside the admin chrome before the fallbacks. */
export const storefrontRoutes: RouteObject[] = [
  // The widget design with its live preview (issue 13; spec 001 §2 widget design settings).
  { path: 'storefront', lazy: () => import('./StorefrontDesignPage').then((m) => ({ Component: m.StorefrontDesignPage })) },
  // The storefront pages and the branding hub with its pages (spec 000 §2), each a schema-driven form with the live preview.
  ...STOREFRONT_PAGES.map(sectionPage('/storefront')),
  { path: 'storefront/branding', lazy: () => import('./BrandingHubPage').then((m) => ({ Component: m.BrandingHubPage })) },
  ...BRANDING_PAGES.map(sectionPage('/storefront/branding')),
  // The referral branding's former address (spec 000 §2 lists referral-v1 beside referral): the same page.
  sectionPage('/storefront/branding')({ ...BRANDING_PAGES.find((p) => p.path === 'branding/referral')!, path: 'branding/referral-v1' }),
];
