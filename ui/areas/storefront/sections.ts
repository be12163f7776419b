/**
 * The storefront pages and branding pages (spec 000 §2 Storefront and Branding routes) and the kind
 * each one edits (schemas/storefront/<name>): one table for the routes, the hub cards and the preview.
 */
import type { MessageKey } from '../../i18n';

/** One storefront or branding page: its path under `/storefront`, its kind, and its catalog keys. */
export interface StorefrontSection {
  /** Path after `/storefront/` (`faqs`, `branding/point`). */
  path: string;
  /** The document kind it edits (a singleton). */
  kind: string;
  /** i18n key of its title and one-line description. */
  titleKey: MessageKey;
  descriptionKey: MessageKey;
}

const section = (path: string, name: string): StorefrontSection => ({
  path,
  kind: `storefront.${name}`,
  titleKey: `storefront.section.${name}.title` as MessageKey,
  descriptionKey: `storefront.section.${name}.description` as MessageKey,
});

/** The storefront pages (spec 000 §2: way-to-earn, vip-tier, way-to-redeem, donation, faqs, calculator). */
export const STOREFRONT_PAGES: readonly StorefrontSection[] = [
  section('way-to-earn', 'way_to_earn'),
  section('way-to-redeem', 'way_to_redeem'),
  section('vip-tier', 'vip_tier'),
  section('donation', 'donation'),
  section('faqs', 'faqs'),
  section('calculator', 'calculator'),
];

/** The branding pages (spec 000 §2: /storefront/branding/ + point, customer-invite, referral, signup-widget, signup-block, checkout-discount, interact-website, reminder). */
export const BRANDING_PAGES: readonly StorefrontSection[] = [
  section('branding/point', 'branding_point'),
  section('branding/customer-invite', 'branding_customer_invite'),
  section('branding/referral', 'branding_referral'),
  section('branding/signup-widget', 'branding_signup_widget'),
  section('branding/signup-block', 'branding_signup_block'),
  section('branding/checkout-discount', 'branding_checkout_discount'),
  section('branding/interact-website', 'branding_interact_website'),
  section('branding/reminder', 'branding_reminder'),
];

/** The custom feature (shop `customFeatures`) that shows the unified checkout discount card (spec 000 §2). */
export const UNIFIED_CHECKOUT_DISCOUNT_FEATURE = 'unified_checkout_discount';

/** What decides which branding hub cards show (spec 000 §2 "Branding hub cards"), from the shop's settings. */
export interface BrandingVisibility {
  /** The shop has the custom feature for a unified checkout discount UI. */
  checkoutDiscount: boolean;
  /** The shop still uses the old thank-you widget (`isUseOldThankYouWidget`). */
  legacySignupWidget: boolean;
}

/** Reads the visibility facts from the shop's settings JSON (`GET /api/shops` → `shop.settings`); absent facts hide the card. */
export function brandingVisibility(settings: unknown): BrandingVisibility {
  const s = typeof settings === 'object' && settings !== null ? (settings as Record<string, unknown>) : {};
  const features = Array.isArray(s.customFeatures) ? s.customFeatures : [];
  return { checkoutDiscount: features.includes(UNIFIED_CHECKOUT_DISCOUNT_FEATURE), legacySignupWidget: s.isUseOldThankYouWidget === true };
}

/**
 * The branding hub's cards in spec order (widget design, referrals, checkout discount, visit website
 * popup, reward reminder, legacy signup widget), each with where it leads; hidden cards left out.
 */
export function brandingCards(visibility: BrandingVisibility): { id: string; to: string; titleKey: MessageKey; descriptionKey: MessageKey; deprecated: boolean }[] {
  const page = (name: string) => BRANDING_PAGES.find((p) => p.kind === `storefront.${name}`)!;
  const card = (name: string, deprecated = false) => ({ id: name, to: `/storefront/${page(name).path}`, titleKey: page(name).titleKey, descriptionKey: page(name).descriptionKey, deprecated });
  return [
    { id: 'widget_design', to: '/storefront', titleKey: 'storefront.design.title' as MessageKey, descriptionKey: 'storefront.section.widget_design.description' as MessageKey, deprecated: false },
    card('branding_referral'),
    ...(visibility.checkoutDiscount ? [card('branding_checkout_discount')] : []),
    card('branding_interact_website'),
    card('branding_reminder'),
    ...(visibility.legacySignupWidget ? [card('branding_signup_widget', true)] : []),
  ];
}
