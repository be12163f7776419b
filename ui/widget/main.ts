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
import { resolveDesign, type WidgetBlock, type WidgetDesign } from '../../engine/widget-design';
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
    } catch (e) {
      this.error = e instanceof Error ? e.message : String(e);
    }
    this.render();
  }

  /** Replaces the design (the admin's live preview) and redraws. */
  setDesign(design: unknown): void {
    this.designOverride = resolveDesign(design);
    this.render();
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
    if (!this.preview && design.showOnlyAfterLogin && guest) {
      this.container.replaceChildren();
      return;
    }
    const launcher = design.launcher.hidden
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
    this.container.replaceChildren(...[launcher, panel].filter((x): x is HTMLElement => x !== null));
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
    for (const block of design.blocks) {
      if (!block.visible) continue;
      const el = this.block(block.id, block.items);
      if (el) out.push(el);
    }
    return out;
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
            h('h3', {}, this.t('welcome.guestTitle')),
            h('p', {}, this.t('welcome.guestBody')),
            h('p', { class: 'ref' }, h('a', { class: 'btn', href: join }, this.t('welcome.join')), h('a', { class: 'link', href: '/account/login' }, this.t('welcome.signIn'))),
          );
        }
        return h(
          'section',
          { class: 'block', 'data-block': 'welcome' },
          h('h3', {}, shopper.firstName ? this.t('welcome.memberTitle', { name: shopper.firstName }) : this.t('welcome.memberTitleNoName')),
          h('p', { class: 'balance', 'data-testid': 'balance' }, this.points(shopper.points)),
          shopper.pendingPoints > 0 ? h('p', { class: 'muted' }, this.t('welcome.pending', { points: shopper.pendingPoints })) : null,
        );
      case 'earn':
        return this.section('earn', this.t('earn.title'), s.earn.length === 0 ? this.t('earn.empty') : null, s.earn.slice(0, items).map((w) => this.earnItem(w)));
      case 'redeem':
        return this.section('redeem', this.t('redeem.title'), s.rewards.length === 0 ? this.t('redeem.empty') : null, s.rewards.slice(0, items).map((r) => this.rewardItem(r)));
      case 'coupons':
        if (!shopper) return null;
        return this.section('coupons', this.t('coupons.title'), s.coupons.length === 0 ? this.t('coupons.empty') : null, s.coupons.slice(0, items).map((c) => this.couponItem(c)));
      case 'history': {
        if (!shopper) return null;
        const list = this.section('history', this.t('history.title'), s.history.length === 0 ? this.t('history.empty') : null, s.history.slice(0, Math.max(items, s.history.length > items ? s.history.length : items)).map((e) =>
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
          h('h3', {}, this.t('tiers.title')),
          h('p', {}, shopper.tier ? this.t('tiers.current', { tier: shopper.tier.name }) : this.t('tiers.none')),
          next
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
        return h(
          'section',
          { class: 'block', 'data-block': 'referral' },
          h('h3', {}, this.t('referral.title')),
          h('p', { class: 'muted' }, this.t('referral.body')),
          h('div', { class: 'ref' }, input, h('button', { class: 'btn', type: 'button', onclick: () => void this.copy(link.url, this.t('referral.copied')) }, this.t('referral.copy'))),
        );
      }
    }
  }

  private section(id: string, title: string, empty: string | null, items: HTMLElement[]): HTMLElement {
    return h('section', { class: 'block', 'data-block': id }, h('h3', {}, title), empty ? h('p', { class: 'muted' }, empty) : h('ul', {}, ...items));
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
   * store day at most, so page views within a visit do not each ask; a visit that earned reloads.
   */
  private async pingVisit(): Promise<void> {
    const key = `loyalty-visit:${new Date().toISOString().slice(0, 10)}`;
    try {
      if (sessionStorage.getItem(key)) return;
      sessionStorage.setItem(key, '1');
    } catch {
      return; // storage blocked: skip rather than ping on every page
    }
    const visit = await this.api.visit().catch(() => ({ awarded: 0 }));
    if (visit.awarded > 0) await this.load();
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
  const api: WidgetCalls = sample ? new PreviewApi(JSON.parse(sample) as PreviewData) : new WidgetApi(data.proxyPath || '/apps/loyalty', language);
  const widget = new LoyaltyWidget(host, api, preview);
  window.LoyaltyWidget = { open: () => widget.show(), close: () => widget.hide(), widget };
  if (preview) {
    window.addEventListener('message', (e: MessageEvent) => {
      if (e.origin !== window.location.origin) return;
      const message = e.data as { type?: string; design?: unknown } | null;
      if (message?.type === 'loyalty-widget:design') widget.setDesign(message.design);
    });
  }
  void widget.load();
}

const current = document.currentScript as HTMLScriptElement | null;
if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', () => boot(current));
else boot(current);
