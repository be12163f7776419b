import type { RouteObject } from 'react-router-dom';
import { ButtonLink } from '../../components/Button';
import { Card } from '../../components/Card';
import { EmptyState } from '../../components/EmptyState';
import { Page } from '../../components/Page';
import { useT, type MessageKey } from '../../i18n';

/**
 * Screens of spec 000 §2 that are not built yet. Each route still resolves (no spec route and no
 * navigation item shows Not Found, issue 12): it shows the screen's name and what it will hold,
 * and links to what works today. An area's real screens replace these entries as they land.
 */
export type ComingSoonArea =
  | 'analytics'
  | 'integrations'
  | 'storefront'
  | 'branding'
  | 'notifications'
  | 'translations'
  | 'billing'
  | 'setup'
  | 'whitelist'
  | 'customerHistory'
  | 'customerActivity'
  | 'featureRequest'
  | 'growth'
  | 'landingPage'
  | 'aiAgent'
  | 'subscriptionMembership'
  | 'discount'
  | 'privileges';

const texts: Record<ComingSoonArea, { title: MessageKey; body: MessageKey }> = {
  analytics: { title: 'soon.analytics.title', body: 'soon.analytics.body' },
  integrations: { title: 'soon.integrations.title', body: 'soon.integrations.body' },
  storefront: { title: 'soon.storefront.title', body: 'soon.storefront.body' },
  branding: { title: 'soon.branding.title', body: 'soon.branding.body' },
  notifications: { title: 'soon.notifications.title', body: 'soon.notifications.body' },
  translations: { title: 'soon.translations.title', body: 'soon.translations.body' },
  billing: { title: 'soon.billing.title', body: 'soon.billing.body' },
  setup: { title: 'soon.setup.title', body: 'soon.setup.body' },
  whitelist: { title: 'soon.whitelist.title', body: 'soon.whitelist.body' },
  customerHistory: { title: 'soon.customerHistory.title', body: 'soon.customerHistory.body' },
  customerActivity: { title: 'soon.customerActivity.title', body: 'soon.customerActivity.body' },
  featureRequest: { title: 'soon.featureRequest.title', body: 'soon.featureRequest.body' },
  growth: { title: 'soon.growth.title', body: 'soon.growth.body' },
  landingPage: { title: 'soon.landingPage.title', body: 'soon.landingPage.body' },
  aiAgent: { title: 'soon.aiAgent.title', body: 'soon.aiAgent.body' },
  subscriptionMembership: { title: 'soon.subscriptionMembership.title', body: 'soon.subscriptionMembership.body' },
  discount: { title: 'soon.discount.title', body: 'soon.discount.body' },
  privileges: { title: 'soon.privileges.title', body: 'soon.privileges.body' },
};

/** The screen: the area's title (or `name`, a proper noun such as an integration's), what it will hold, and the way on. */
export function ComingSoonPage({ area, name }: { area: ComingSoonArea; name?: string }) {
  const t = useT();
  const text = texts[area];
  return (
    <Page title={name ?? t(text.title)} narrow>
      <Card>
        <EmptyState
          heading={t('soon.heading')}
          action={
            <div className="coming-soon__actions">
              <ButtonLink to="/programs" variant="primary">
                {t('soon.programs')}
              </ButtonLink>
              <ButtonLink to="/customers">{t('soon.customers')}</ButtonLink>
            </div>
          }
        >
          {t(text.body)}
        </EmptyState>
      </Card>
    </Page>
  );
}

/** Integrations of spec 000 §2, by their route segment, named as their makers write them. */
export const INTEGRATIONS: Record<string, string> = {
  theme: 'Theme',
  'review/app/yopto': 'Yotpo',
  stamped: 'Stamped',
  loox: 'Loox',
  judgeme: 'Judge.me',
  fera: 'Fera',
  airReviews: 'Air Reviews',
  subscription: 'Subscriptions',
  'subscription/shopify': 'Shopify Subscriptions',
  'recharge-subscriptions': 'Recharge',
  'order-limit': 'Order limits',
  gorgias: 'Gorgias',
  transcy: 'Transcy',
  pushowl: 'PushOwl',
  pageFly: 'PageFly',
  shopifyFlow: 'Shopify Flow',
  klaviyo: 'Klaviyo',
  drip: 'Drip',
  mailchimp: 'Mailchimp',
  omnisend: 'Omnisend',
  chatty: 'Chatty',
  tidio: 'Tidio',
  sendlane: 'Sendlane',
  shopifyForm: 'Shopify Forms',
};

const soon = (path: string, area: ComingSoonArea, name?: string): RouteObject => ({ path, element: <ComingSoonPage area={area} {...(name ? { name } : {})} /> });

/**
 * Every spec route without its screen yet. react-router ranks a static segment above a dynamic one
 * (`customers/activity/review` beats `customers/activity/:type`), and of two equal paths the first
 * mounted wins, so the route table mounts these after the built screens; an area removes its
 * entries here when its screens land.
 */
export const comingSoonRoutes: RouteObject[] = [
  soon('analytics', 'analytics'),
  ...['loyalty-programs', 'point', 'member', 'referral'].map((p) => soon(`analytics/${p}`, 'analytics')),
  soon('integration', 'integrations'),
  ...Object.entries(INTEGRATIONS).map(([path, name]) => soon(`integration/${path}`, 'integrations', name)),
  // The storefront pages and the branding hub are built (ui/areas/storefront/routes.tsx); another
  // storefront address still names what it will hold.
  soon('storefront/:id', 'storefront'),
  soon('settings/notifications', 'notifications'),
  soon('settings/notifications/:id', 'notifications'),
  soon('customers/notifications/manage', 'notifications'),
  soon('customers/history', 'customerHistory'),
  soon('customers/activity', 'customerActivity'),
  soon('customers/activity/:type', 'customerActivity'),
  soon('feature-request', 'featureRequest'),
  soon('feedback', 'featureRequest'),
  soon('gift', 'growth'),
  soon('landing-page', 'landingPage'),
  soon('ai-agent', 'aiAgent'),
  soon('membership/subscription', 'subscriptionMembership'),
  soon('discount/:functionId/:id', 'discount'),
  soon('wholesale/privileges/:id', 'privileges'),
];
