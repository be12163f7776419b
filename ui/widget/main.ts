/**
 * The storefront widget (issue 13): the script a shop's theme loads. It draws the launcher (float
 * button) and the panel — welcome box, ways to earn, ways to redeem, my coupons, point history,
 * VIP tier with progress, referral link, and the sign-up prompt for guests — inside a shadow root
 * (the theme's CSS cannot reach in, the widget's cannot reach out), in the shopper's language, from
 * the storefront API (docs/storefront-api.md).
 *
 * Script tag attributes: `data-proxy-path` (default `/apps/loyalty`), `data-language` (default the
 * page's `<html lang>`, then the browser's), `data-preview` (the admin's live preview: sample data
 * from the page's `<script type="application/json" id="loyalty-preview-data">`, no network; the
 * design comes from `postMessage({ type: 'loyalty-widget:design', design })`; the panel starts open).
 * Exposes `window.LoyaltyWidget.open()` / `.close()` for themes that hide the launcher.
 * Plain DOM, no framework: the bundle budget is 60 KB compressed.
 */
import { calculatorPoints, launcherHiddenOn, popupOn, resolveDesign, restrictedOn, type StorefrontSections, type WidgetBlock, type WidgetDesign } from '../../engine/widget-design';
import { PreviewApi, WidgetApi, WidgetApiError, type Coupon, type PreviewData, type WidgetCalls, type HistoryItem, type Reward, type ShopperView, type WayToEarn, type WidgetConfig } from './api';
import { storefrontTextDirection } from '../../engine/storefront-languages';
import { widgetCss } from './styles';

type Child = Node | string | null | undefined | false;

/** Builds an element; text children become text nodes (never HTML). */
function h(tag: string, attrs: Record<string, string | boolean | ((e: Event) => void)> = {}, ...children: Child[]): HTMLElement {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (typeof value === 'function') el.addEventListener(key.slice(2), value);
    else if (value === true) el.setAttribute(key, '');
    else if (value !== false) el.setAttribute(key, value);
  }
  for (const child of children) if (child !== null && child !== undefined && child !== false) el.append(child);
  return el;
}

const ICONS: Record<WidgetDesign['launcher']['icon'], string> = {
  gift: 'M20 7h-2.2A3 3 0 0 0 12 4.4 3 3 0 0 0 6.2 7H4a1 1 0 0 0-1 1v3a1 1 0 0 0 1 1v8a1 1 0 0 0 1 1h14a1 1 0 0 0 1-1v-8a1 1 0 0 0 1-1V8a1 1 0 0 0-1-1Zm-5-1a1 1 0 1 1 0 2h-2V7a1 1 0 0 1 2-1ZM9 6a1 1 0 0 1 2 1v1H9a1 1 0 0 1 0-2Zm-4 4h6v1H5Zm1 3h5v6H6Zm7 6v-6h5v6Zm6-8h-6v-1h6Z',
  star: 'M12 2.5l2.9 6 6.6.9-4.8 4.6 1.2 6.5L12 17.4l-5.9 3.1 1.2-6.5-4.8-4.6 6.6-.9z',
  crown: 'M3 7l4.5 4L12 4l4.5 7L21 7l-2 11H5zm2 13h14v2H5z',
  heart: 'M12 21s-7.5-4.6-9.5-9.3C1.1 8.3 3.3 5 6.6 5c2 0 3.4 1.1 4.4 2.5C12 6.1 13.4 5 15.4 5c3.3 0 5.5 3.3 4.1 6.7C19.5 16.4 12 21 12 21z',
};

/** The point icons of the point branding (schemas/storefront/branding_point). */
const POINT_ICONS: Record<string, string> = {
  coin: 'M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20Zm0 3a7 7 0 1 1 0 14 7 7 0 0 1 0-14Z',
  star: ICONS.star,
  diamond: 'M6 3h12l4 6-10 12L2 9z',
  heart: ICONS.heart,
};

/** The member's point icon in the branding color, before each balance. */
function pointIcon(name: unknown, color: unknown): SVGElement {
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('class', 'point-icon');
  const path = document.createElementNS('http://www.w3.org/2000/svg', 'path');
  path.setAttribute('d', POINT_ICONS[String(name)] ?? POINT_ICONS.coin!);
  path.setAttribute('fill', typeof color === 'string' && /^#[0-9a-fA-F]{6}$/.test(color) ? color : '#f5a623');
  svg.append(path);
  return svg;
}

/** Whether the page is phone-sized (the instant popup's and the launcher's "mobile"). */
const isMobile = (): boolean => typeof window.matchMedia === 'function' && window.matchMedia('(max-width: 767px)').matches;

/** A section's text setting: the merchant's words, or null when left empty (the widget's own text then). */
const custom = (section: Record<string, unknown> | null, key: string): string | null => {
  const value = section?.[key];
  return typeof value === 'string' && value.trim() !== '' ? value : null;
};

function icon(name: WidgetDesign['launcher']['icon'], theme: WidgetDesign['iconTheme']): SVGElement {
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('aria-hidden', 'true');
  const path = document.createElementNS('http://www.w3.org/2000/svg', 'path');
  path.setAttribute('d', ICONS[name]);
  path.setAttribute('fill', theme === 'elegant' ? 'none' : 'currentColor');
  if (theme === 'elegant') {
    path.setAttribute('stroke', 'currentColor');
    path.setAttribute('stroke-width', '1.5');
  }
  svg.append(path);
  return svg;
}

/** `{{name}}` placeholders filled from `values`; an unknown placeholder stays as written. */
function fill(text: string, values: Record<string, string | number>): string {
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, key: string) => (key in values ? String(values[key]) : whole));
}

/** How long after a visit ping the panel reloads to show the visit's points (ms): the server awards it from its queue within this on a healthy server. */
const VISIT_RELOAD_MS = 1500;

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), [tabindex]:not([tabindex="-1"])';

interface State {
  config: WidgetConfig;
  shopper: ShopperView | null;
  earn: WayToEarn[];
  rewards: Reward[];
  coupons: Coupon[];
  history: HistoryItem[];
  historyCursor: string | null;
  referral: { url: string; code: string } | null;
  notice: { text: string; ok: boolean } | null;
}

/** One widget on the page. */
export class LoyaltyWidget {
  private readonly root: ShadowRoot;
  private readonly style = document.createElement('style');
  private readonly container = h('div', { class: 'root' });
  private state: State | null = null;
  private open = false;
  private error: string | null = null;
  private designOverride: WidgetDesign | null = null;
  private sectionsOverride: StorefrontSections | null = null;
  private lastFocus: HTMLElement | null = null;

  constructor(
    host: HTMLElement,
    private readonly api: WidgetCalls,
    private readonly preview: boolean,
  ) {
    this.root = host.attachShadow({ mode: 'open' });
    this.root.append(this.style, this.container);
    this.open = preview;
  }

  private get design(): WidgetDesign {
    return this.designOverride ?? this.state?.config.design ?? resolveDesign(null);
  }

  /** A storefront or branding section switched on (`faqs`, `branding_point`, …), or null. */
  private section(name: string): Record<string, unknown> | null {
    const sections = this.sectionsOverride ?? this.state?.config.sections ?? {};
    const found = sections[name];
    return found && found.enabled !== false ? found : null;
  }

  private t(key: string, values: Record<string, string | number> = {}): string {
    const texts = this.state?.config.texts ?? {};
    return fill(texts[key] ?? key, values);
  }

  private points(n: number): string {
    const label = this.state?.config.shop.pointLabel ?? { singular: 'point', plural: 'points' };
    return `${new Intl.NumberFormat(this.state?.config.language ?? 'en').format(n)} ${Math.abs(n) === 1 ? label.singular : label.plural}`;
  }

  /** Loads everything the panel shows; a guest loads only the public parts. */
  async load(): Promise<void> {
    try {
      const [config, shopper] = await Promise.all([this.api.config(), this.api.shopper()]);
      const member = shopper !== null;
      const [earn, rewards, coupons, history, referral] = await Promise.all([
        this.api.waysToEarn().catch(() => []),
        this.api.rewards().catch(() => []),
        member ? this.api.coupons().catch(() => []) : Promise.resolve([]),
        member ? this.api.history().catch(() => ({ items: [], endCursor: null })) : Promise.resolve({ items: [], endCursor: null }),
        member ? this.api.referral().catch(() => null) : Promise.resolve(null),
      ]);
      this.state = { config, shopper, earn, rewards, coupons, history: history.items, historyCursor: history.endCursor, referral, notice: null };
      this.error = null;
      if (member && !this.preview) void this.pingVisit();
      if (!this.preview) this.instantPopup();
    } catch (e) {
      this.error = e instanceof Error ? e.message : String(e);
    }
    this.render();
  }

  /** Replaces the design and, when given, the storefront sections (the admin's live preview), and redraws. */
  setDesign(design: unknown, sections?: unknown): void {
    this.designOverride = resolveDesign(design);
    if (sections !== undefined && sections !== null && typeof sections === 'object') this.sectionsOverride = sections as StorefrontSections;
    this.render();
  }

  /** The instant popup (spec 001 §2): opens the panel on the listed pages and devices, once per browser session. */
  private instantPopup(): void {
    if (this.open || restrictedOn(this.design, window.location.pathname) || !popupOn(this.design, window.location.pathname, isMobile())) return;
    if (this.design.showOnlyAfterLogin && !this.state?.shopper) return;
    try {
      if (sessionStorage.getItem('loyalty-popup')) return;
      sessionStorage.setItem('loyalty-popup', '1');
    } catch {
      // Storage blocked: open anyway (this page view only).
    }
    this.show();
  }

  /** Opens the panel and moves focus into it. */
  show(): void {
    this.lastFocus = (document.activeElement as HTMLElement | null) ?? null;
    this.open = true;
    this.render();
    (this.root.querySelector('.panel .close') as HTMLElement | null)?.focus();
  }

  /** Closes the panel and gives focus back to what had it (the launcher). */
  hide(): void {
    this.open = false;
    this.render();
    const launcher = this.root.querySelector('.launcher') as HTMLElement | null;
    (launcher ?? this.lastFocus)?.focus();
  }

  private render(): void {
    const design = this.design;
    this.style.textContent = widgetCss(design);
    // The panel reads in the served language's direction (Arabic and Hebrew right to left).
    const language = this.state?.config.language ?? 'en';
    this.container.setAttribute('lang', language);
    this.container.setAttribute('dir', storefrontTextDirection(language));
    const guest = this.state !== null && this.state.shopper === null;
    if (!this.preview && ((design.showOnlyAfterLogin && guest) || restrictedOn(design, window.location.pathname))) {
      this.container.replaceChildren();
      return;
    }
    const launcher = launcherHiddenOn(design, isMobile())
      ? null
      : h(
          'button',
          { class: 'launcher', type: 'button', 'aria-haspopup': 'dialog', 'aria-expanded': String(this.open), onclick: () => (this.open ? this.hide() : this.show()) },
          icon(design.launcher.icon, design.iconTheme),
          design.launcher.showLabel ? h('span', {}, this.t('launcher.label')) : h('span', { class: 'sr' }, this.t('launcher.label')),
        );
    const panel = h(
      'div',
      { class: 'panel', role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': 'lw-title', hidden: !this.open, onkeydown: (e) => this.onKey(e as KeyboardEvent) },
      h('div', { class: 'head' }, h('h2', { id: 'lw-title' }, this.t('panel.title')), h('button', { class: 'close', type: 'button', 'aria-label': this.t('panel.close'), onclick: () => this.hide() }, '×')),
      h('div', { class: 'body' }, ...this.body(design)),
    );
    this.container.replaceChildren(...[launcher, launcher && !this.open ? this.reminder() : null, panel].filter((x): x is HTMLElement => x !== null));
  }

  private onKey(e: KeyboardEvent): void {
    if (e.key === 'Escape') {
      e.preventDefault();
      this.hide();
      return;
    }
    if (e.key !== 'Tab') return;
    const panel = this.root.querySelector('.panel');
    const items = panel ? [...panel.querySelectorAll<HTMLElement>(FOCUSABLE)] : [];
    if (items.length === 0) return;
    const first = items[0]!;
    const last = items[items.length - 1]!;
    const active = this.root.activeElement;
    if (e.shiftKey && active === first) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && active === last) {
      e.preventDefault();
      first.focus();
    }
  }

  private body(design: WidgetDesign): HTMLElement[] {
    if (this.error !== null) {
      return [h('div', { class: 'block', role: 'alert' }, h('p', {}, this.t('error.load')), h('button', { class: 'btn', type: 'button', onclick: () => void this.load() }, this.t('error.retry')))];
    }
    if (this.state === null) return [h('div', { class: 'block', 'aria-busy': 'true' }, this.t('loading'))];
    const out: HTMLElement[] = [];
    if (this.state.notice) out.push(h('div', { class: `notice${this.state.notice.ok ? ' ok' : ''}`, role: 'status' }, this.state.notice.text));
    const card = this.membershipCard(design);
    if (card) out.push(card);
    for (const block of design.blocks) {
      if (!block.visible) continue;
      const el = this.block(block.id, block.items);
      if (el) out.push(el);
    }
    // Storefront pages (spec 000 §2) the merchant switched on, after the blocks.
    for (const el of [this.calculator(), this.donation(), this.faqs()]) if (el) out.push(el);
    return out;
  }

  /** The membership card (spec 001 §2 membership card design): name, balance and tier, for members. */
  private membershipCard(design: WidgetDesign): HTMLElement | null {
    const shopper = this.state?.shopper;
    const card = design.membershipCard;
    if (!shopper || !card.enabled) return null;
    return h(
      'section',
      { class: 'card', 'data-block': 'membership-card', style: `background:${card.background};color:${card.text}` },
      h('p', { class: 'card-name' }, shopper.firstName ? this.t('welcome.memberTitle', { name: shopper.firstName }) : this.t('welcome.memberTitleNoName')),
      h('p', { class: 'balance' }, this.balance(shopper.points)),
      card.showTier && shopper.tier ? h('p', { class: 'card-tier' }, this.t('tiers.current', { tier: shopper.tier.name })) : null,
    );
  }

  /** A balance with the point branding's icon before it (schemas/storefront/branding_point). */
  private balance(points: number): HTMLElement {
    const brand = this.section('branding_point');
    const icon = brand ? pointIcon(brand.icon, brand.color) : null;
    if (icon && typeof brand?.iconSize === 'number') icon.setAttribute('style', `width:${Math.min(32, Math.max(12, brand.iconSize))}px;height:${Math.min(32, Math.max(12, brand.iconSize))}px`);
    return h('span', { class: 'points' }, icon, this.points(points));
  }

  /** The reward reminder beside the launcher (branding_reminder): a member who can afford a reward. */
  private reminder(): HTMLElement | null {
    const s = this.state;
    const reminder = this.section('branding_reminder');
    if (!s?.shopper || !reminder || typeof reminder.message !== 'string' || !s.rewards.some((r) => r.affordable)) return null;
    if (reminder.showOn === 'home' && !this.preview && window.location.pathname !== '/') return null;
    return h('div', { class: 'reminder', role: 'status', 'data-block': 'reminder' }, fill(reminder.message, { points: this.points(s.shopper.points) }));
  }

  /** Frequently asked questions (storefront page `faqs`). */
  private faqs(): HTMLElement | null {
    const faqs = this.section('faqs');
    const items = Array.isArray(faqs?.questions) ? (faqs.questions as { question?: unknown; answer?: unknown }[]) : [];
    if (!faqs || items.length === 0) return null;
    return h(
      'section',
      { class: 'block', 'data-block': 'faqs' },
      h('h3', {}, custom(faqs, 'heading') ?? ''),
      ...items.map((q) => h('details', { class: 'faq' }, h('summary', {}, String(q.question ?? '')), h('p', {}, String(q.answer ?? '')))),
    );
  }

  /** The point calculator (storefront page `calculator`): an order amount → the points it earns at the place-order rate. */
  private calculator(): HTMLElement | null {
    const calc = this.section('calculator');
    const rate = this.state?.config.earnRate;
    if (!calc || !rate) return null;
    const start = typeof calc.defaultAmount === 'number' ? calc.defaultAmount : 100;
    const result = h('p', { class: 'balance', 'aria-live': 'polite', 'data-testid': 'calculator-result' }, this.points(calculatorPoints(start, rate)));
    const input = h('input', { type: 'number', min: '0', step: 'any', value: String(start), inputmode: 'decimal', 'aria-labelledby': 'lw-calc' }) as HTMLInputElement;
    // Only the result changes while the shopper types: the input keeps its focus.
    input.addEventListener('input', () => result.replaceChildren(this.points(calculatorPoints(Number(input.value), rate))));
    return h(
      'section',
      { class: 'block', 'data-block': 'calculator' },
      h('h3', { id: 'lw-calc' }, custom(calc, 'heading') ?? ''),
      custom(calc, 'subheading') ? h('p', { class: 'muted' }, custom(calc, 'subheading')) : null,
      h('label', { class: 'ref' }, h('span', {}, this.state!.config.shop.currency), input),
      result,
    );
  }

  /** Donations (storefront page `donation`): what a donation of points gives and to whom. */
  private donation(): HTMLElement | null {
    const d = this.section('donation');
    if (!d || !custom(d, 'organization')) return null;
    const points = typeof d.pointsPerDonation === 'number' ? d.pointsPerDonation : 100;
    const amount = typeof d.amountPerDonation === 'number' ? d.amountPerDonation : 1;
    const money = new Intl.NumberFormat(this.state?.config.language ?? 'en', { style: 'currency', currency: this.state?.config.shop.currency ?? 'USD' }).format(amount);
    return h(
      'section',
      { class: 'block', 'data-block': 'donation' },
      h('h3', {}, custom(d, 'heading') ?? ''),
      h('p', {}, fill(custom(d, 'subheading') ?? '{{organization}}', { points: this.points(points), amount: money, organization: custom(d, 'organization')! })),
    );
  }

  private block(id: WidgetBlock, items: number): HTMLElement | null {
    const s = this.state!;
    const shopper = s.shopper;
    switch (id) {
      case 'welcome':
        if (!shopper) {
          const join = this.design.redirectUrl || '/account/register';
          return h(
            'section',
            { class: 'block', 'data-block': 'welcome' },
            h('h3', {}, custom(this.section('branding_signup_block'), 'heading') ?? this.t('welcome.guestTitle')),
            h('p', {}, custom(this.section('branding_signup_block'), 'body') ?? this.t('welcome.guestBody')),
            h(
              'p',
              { class: 'ref' },
              h('a', { class: 'btn', href: join }, custom(this.section('branding_signup_block'), 'joinLabel') ?? this.t('welcome.join')),
              h('a', { class: 'link', href: '/account/login' }, custom(this.section('branding_signup_block'), 'signInLabel') ?? this.t('welcome.signIn')),
            ),
          );
        }
        return h(
          'section',
          { class: 'block', 'data-block': 'welcome' },
          h('h3', {}, shopper.firstName ? this.t('welcome.memberTitle', { name: shopper.firstName }) : this.t('welcome.memberTitleNoName')),
          h('p', { class: 'balance', 'data-testid': 'balance' }, this.balance(shopper.points)),
          shopper.pendingPoints > 0 ? h('p', { class: 'muted' }, this.t('welcome.pending', { points: shopper.pendingPoints })) : null,
        );
      case 'earn': {
        const page = this.section('way_to_earn');
        let list = page?.showCompleted === false ? s.earn.filter((w) => w.completed !== true) : [...s.earn];
        const rank = (w: WayToEarn) => (w.completed === true ? 1 : 0);
        if ((page?.sortOrder ?? 'incomplete_first') === 'incomplete_first') list = list.sort((a, b) => rank(a) - rank(b));
        else if (page?.sortOrder === 'completed_first') list = list.sort((a, b) => rank(b) - rank(a));
        return this.list('earn', custom(page, 'heading') ?? this.t('earn.title'), custom(page, 'subheading'), list.length === 0 ? this.t('earn.empty') : null, list.slice(0, items).map((w) => this.earnItem(w)));
      }
      case 'redeem': {
        const page = this.section('way_to_redeem');
        let list = page?.showUnaffordable === false ? s.rewards.filter((r) => r.affordable) : [...s.rewards];
        if ((page?.sortOrder ?? 'points_low_first') === 'points_low_first') list = list.sort((a, b) => a.pointsCost - b.pointsCost);
        else if (page?.sortOrder === 'points_high_first') list = list.sort((a, b) => b.pointsCost - a.pointsCost);
        return this.list('redeem', custom(page, 'heading') ?? this.t('redeem.title'), custom(page, 'subheading'), list.length === 0 ? this.t('redeem.empty') : null, list.slice(0, items).map((r) => this.rewardItem(r)));
      }
      case 'coupons':
        if (!shopper) return null;
        return this.list('coupons', this.t('coupons.title'), null, s.coupons.length === 0 ? this.t('coupons.empty') : null, s.coupons.slice(0, items).map((c) => this.couponItem(c)));
      case 'history': {
        if (!shopper) return null;
        const list = this.list('history', this.t('history.title'), null, s.history.length === 0 ? this.t('history.empty') : null, s.history.slice(0, Math.max(items, s.history.length > items ? s.history.length : items)).map((e) =>
          h('li', { class: 'item' }, h('span', {}, e.description, h('br'), h('span', { class: 'muted' }, new Date(e.createdAt).toLocaleDateString(s.config.language))), h('strong', {}, `${e.points > 0 ? '+' : ''}${e.points}`)),
        ));
        if (s.historyCursor) list.append(h('button', { class: 'btn', type: 'button', onclick: () => void this.moreHistory() }, this.t('history.more')));
        return list;
      }
      case 'tiers': {
        if (!shopper) return null;
        const next = shopper.nextTier;
        return h(
          'section',
          { class: 'block', 'data-block': 'tiers' },
          h('h3', {}, custom(this.section('vip_tier'), 'heading') ?? this.t('tiers.title')),
          custom(this.section('vip_tier'), 'subheading') ? h('p', { class: 'muted' }, custom(this.section('vip_tier'), 'subheading')) : null,
          h('p', {}, shopper.tier ? this.t('tiers.current', { tier: shopper.tier.name }) : this.t('tiers.none')),
          next && this.section('vip_tier')?.showProgress !== false
            ? h('div', {}, h('p', { class: 'muted' }, this.t('tiers.progress', { current: next.current, target: next.target, tier: next.name })), h('div', { class: 'bar', role: 'progressbar', 'aria-valuemin': '0', 'aria-valuemax': '100', 'aria-valuenow': String(Math.round(next.progress * 100)) }, h('span', { style: `width:${Math.round(Math.min(1, Math.max(0, next.progress)) * 100)}%` })))
            : shopper.tier
              ? h('p', { class: 'muted' }, this.t('tiers.top'))
              : null,
        );
      }
      case 'referral': {
        const link = s.referral;
        if (!shopper || !link) return null;
        const input = h('input', { readonly: true, value: link.url, 'aria-label': this.t('referral.title') }) as HTMLInputElement;
        const brand = this.section('branding_referral');
        const background = typeof brand?.background === 'string' && /^#[0-9a-fA-F]{6}$/.test(brand.background) ? `background:${brand.background}` : '';
        return h(
          'section',
          { class: 'block', 'data-block': 'referral', ...(background ? { style: background } : {}) },
          h('h3', {}, custom(brand, 'heading') ?? this.t('referral.title')),
          h('p', { class: 'muted' }, custom(brand, 'subheading') ?? this.t('referral.body')),
          h('div', { class: 'ref' }, input, h('button', { class: 'btn', type: 'button', onclick: () => void this.copy(link.url, this.t('referral.copied')) }, this.t('referral.copy'))),
          this.shareLinks(link.url),
        );
      }
    }
  }

  private list(id: string, title: string, subtitle: string | null, empty: string | null, items: HTMLElement[]): HTMLElement {
    return h('section', { class: 'block', 'data-block': id }, h('h3', {}, title), subtitle ? h('p', { class: 'muted' }, subtitle) : null, empty ? h('p', { class: 'muted' }, empty) : h('ul', {}, ...items));
  }

  /** Share links of the customer invite branding (branding_customer_invite): its message with the member's link. */
  private shareLinks(url: string): HTMLElement | null {
    const invite = this.section('branding_customer_invite');
    if (!invite) return null;
    const message = fill(typeof invite.shareMessage === 'string' && invite.shareMessage.trim() ? invite.shareMessage : '{{link}}', { link: url });
    const text = encodeURIComponent(message);
    const links: [string, string, string][] = [
      ['facebook', 'Facebook', `https://www.facebook.com/sharer/sharer.php?u=${encodeURIComponent(url)}`],
      ['twitter', 'X', `https://twitter.com/intent/tweet?text=${text}`],
      ['whatsapp', 'WhatsApp', `https://wa.me/?text=${text}`],
    ];
    const shown = links.filter(([key]) => invite[key] !== false);
    if (shown.length === 0) return null;
    return h('p', { class: 'share' }, ...shown.map(([key, label, href]) => h('a', { class: 'link', href, target: '_blank', rel: 'noopener noreferrer', 'data-share': key }, label)));
  }

  private earnItem(w: WayToEarn): HTMLElement {
    const action =
      w.completed === true
        ? h('span', { class: 'muted' }, this.t('earn.completed'))
        : w.action === 'claim' && this.state?.shopper
          ? h('button', { class: 'btn', type: 'button', onclick: () => void this.claim(w) }, this.t('earn.claim'))
          : w.action === 'link' && w.url
            ? h('a', { class: 'btn', href: w.url, target: '_blank', rel: 'noopener noreferrer', onclick: () => void this.claimLater(w) }, this.t('earn.open'))
            : null;
    return h('li', { class: 'item' }, h('span', {}, w.title, w.pointsText ? h('br') : null, w.pointsText ? h('span', { class: 'muted' }, w.pointsText) : null), action);
  }

  private rewardItem(r: Reward): HTMLElement {
    const shopper = this.state?.shopper ?? null;
    const cost = r.minPoints !== undefined && r.maxPoints !== undefined && r.minPoints !== r.maxPoints ? this.t('redeem.range', { min: r.minPoints, max: r.maxPoints, pointLabel: this.state!.config.shop.pointLabel.plural }) : this.points(r.pointsCost);
    let action: HTMLElement;
    if (!shopper) action = h('a', { class: 'link', href: '/account/login' }, this.t('redeem.signInFirst'));
    else if (!r.affordable) action = h('span', { class: 'muted' }, this.t('redeem.needMore', { points: Math.max(0, (r.minPoints ?? r.pointsCost) - shopper.points), pointLabel: this.state!.config.shop.pointLabel.plural }));
    else action = h('button', { class: 'btn', type: 'button', onclick: (e) => void this.redeem(r, e.currentTarget as HTMLButtonElement) }, this.t('redeem.action'));
    return h('li', { class: 'item' }, h('span', {}, r.title, h('br'), h('span', { class: 'muted' }, cost)), action);
  }

  private couponItem(c: Coupon): HTMLElement {
    return h(
      'li',
      { class: 'item' },
      h('span', {}, c.title, h('br'), h('span', { class: 'code' }, c.code), ' ', h('span', { class: 'muted' }, this.t(`coupons.status.${c.status}`)), c.expiresAt ? h('span', { class: 'muted' }, ` · ${this.t('coupons.expires', { date: new Date(c.expiresAt).toLocaleDateString(this.state!.config.language) })}`) : null),
      c.status === 'available'
        ? h('span', { class: 'ref' }, h('button', { class: 'btn', type: 'button', onclick: () => void this.copy(c.code, this.t('coupons.copied')) }, this.t('coupons.copy')), c.revocable ? h('button', { class: 'btn', type: 'button', onclick: () => void this.revoke(c) }, this.t('coupons.revoke')) : null)
        : null,
    );
  }

  private notify(text: string, ok: boolean): void {
    if (this.state) this.state.notice = { text, ok };
    this.render();
    (this.root.querySelector('.notice') as HTMLElement | null)?.setAttribute('tabindex', '-1');
  }

  private async redeem(reward: Reward, button: HTMLButtonElement): Promise<void> {
    button.disabled = true;
    const key = crypto.randomUUID ? crypto.randomUUID() : `${Date.now()}-${Math.random()}`;
    try {
      const points = reward.minPoints !== undefined && reward.maxPoints !== undefined && reward.minPoints !== reward.maxPoints ? reward.minPoints : undefined;
      const done = await this.api.redeem(reward.id, points, key);
      await this.refresh();
      this.notify(this.t('redeem.done', { code: done.coupon.code }), true);
    } catch (e) {
      this.notify(e instanceof WidgetApiError ? e.message : this.t('error.load'), false);
    }
  }

  private async revoke(coupon: Coupon): Promise<void> {
    try {
      await this.api.revoke(coupon.id);
      await this.refresh();
    } catch (e) {
      this.notify(e instanceof WidgetApiError ? e.message : this.t('error.load'), false);
    }
  }

  private async claim(w: WayToEarn): Promise<void> {
    try {
      const { awarded } = await this.api.claim(w.id);
      await this.refresh();
      if (awarded > 0) this.notify(this.t('earn.claimed', { points: awarded, pointLabel: this.state!.config.shop.pointLabel.plural }), true);
    } catch (e) {
      this.notify(e instanceof WidgetApiError ? e.message : this.t('error.load'), false);
    }
  }

  /** Social actions: the link opens in a new tab; the claim follows (spec 002 §4 "claim after the link was opened"). */
  private async claimLater(w: WayToEarn): Promise<void> {
    if (!this.state?.shopper) return;
    await new Promise((r) => setTimeout(r, 1500));
    await this.claim(w);
  }

  private async moreHistory(): Promise<void> {
    if (!this.state?.historyCursor) return;
    const next = await this.api.history(this.state.historyCursor).catch(() => null);
    if (!next) return;
    this.state.history.push(...next.items);
    this.state.historyCursor = next.endCursor;
    this.render();
  }

  private async copy(text: string, done: string): Promise<void> {
    try {
      await navigator.clipboard.writeText(text);
      this.notify(done, true);
    } catch {
      // Clipboard refused (e.g. not a secure context): the text stays selectable in the panel.
    }
  }

  /**
   * The visit ping (visit-website and visit-streak programs): once per browser session and
   * store day at most, so page views within a visit do not each ask. The server records the visit
   * and awards it a moment later (server/services/visits.ts), so when the shop has a visit program
   * the panel reloads after VISIT_RELOAD_MS to show the points.
   */
  private async pingVisit(): Promise<void> {
    const key = `loyalty-visit:${new Date().toISOString().slice(0, 10)}`;
    try {
      if (sessionStorage.getItem(key)) return;
      sessionStorage.setItem(key, '1');
    } catch {
      return; // storage blocked: skip rather than ping on every page
    }
    const visit = await this.api.visit().catch(() => ({ queued: false }));
    if (!visit.queued || !this.state?.earn.some((way) => way.action === 'visit')) return;
    await new Promise((resolve) => setTimeout(resolve, VISIT_RELOAD_MS));
    await this.load();
  }

  /** Reloads balances, coupons and history after an action (the notice is set after). */
  private async refresh(): Promise<void> {
    await this.load();
  }
}

declare global {
  interface Window {
    LoyaltyWidget?: { open(): void; close(): void; widget: LoyaltyWidget };
  }
}

/** Starts the widget from its script tag (once per page). */
function boot(script: HTMLScriptElement | null): void {
  if (window.LoyaltyWidget) return;
  const data = script?.dataset ?? {};
  const language = data.language || document.documentElement.lang || navigator.language || 'en';
  const preview = data.preview !== undefined;
  const host = document.createElement('div');
  host.id = 'loyalty-widget';
  document.body.append(host);
  const sample = preview ? document.getElementById('loyalty-preview-data')?.textContent : null;
  const api: WidgetCalls = sample ? new PreviewApi(JSON.parse(sample) as PreviewData) : new WidgetApi(data.proxyPath || '/apps/loyalty', language, navigator.language || '');
  const widget = new LoyaltyWidget(host, api, preview);
  window.LoyaltyWidget = { open: () => widget.show(), close: () => widget.hide(), widget };
  if (preview) {
    window.addEventListener('message', (e: MessageEvent) => {
      if (e.origin !== window.location.origin) return;
      const message = e.data as { type?: string; design?: unknown; sections?: unknown } | null;
      if (message?.type === 'loyalty-widget:design') widget.setDesign(message.design, message.sections);
    });
    // The admin's preview waits for this before it sends the design, and shows an error when it
    // never comes (the bundle did not load or threw). Same origin only.
    if (window.parent !== window) window.parent.postMessage({ type: 'loyalty-widget:ready' }, window.location.origin);
  }
  void widget.load();
}

const current = document.currentScript as HTMLScriptElement | null;
if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', () => boot(current));
else boot(current);
