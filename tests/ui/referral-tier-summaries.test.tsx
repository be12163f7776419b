// @vitest-environment jsdom
/**
 * One-line plain summaries (issue: "editors grouped into cards with a one-line plain summary",
 * "program tables: … a column for what each program gives") for the referral program and VIP tiers:
 * each referral reward type and each tier perk type named, amounts in the admin's language and the
 * shop's currency, the line over the editors following the form, and nothing when nothing is given.
 */
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadRegistry } from '../../engine/registry';
import type { JsonObject } from '../../engine/types';
import { referralReward, referralSummary } from '../../ui/areas/referrals/referral-summary';
import { tierGives, tierRequirement, tierSummary } from '../../ui/areas/tiers/tier-summary';
import { withDefaults } from '../../ui/form/form-data';
import { loadI18next } from '../../ui/i18n';
import { storedDoc } from './catalogue-factories';
import { mockFetch, renderApp, shopReply } from './helpers';

const i18n = await loadI18next();

afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  sessionStorage.clear();
  await i18n.changeLanguage('en');
});

const root = join(import.meta.dirname, '../..');
const registry = loadRegistry(join(root, 'schemas'));
/** A template's defaults, as a new document of the kind starts. */
const defaults = (kind: string, data: JsonObject = {}): JsonObject => withDefaults(registry.get(kind)!.schema, data);
/** A fixture's data (fixtures/kinds/<kind>/<name>.json). */
const fixture = (kind: string, name: string): JsonObject => JSON.parse(readFileSync(join(root, 'fixtures/kinds', kind, `${name}.json`), 'utf8')) as JsonObject;

const friend = (data: JsonObject) => defaults('referral.friend_reward', data);
const customer = (data: JsonObject) => defaults('referral.customer_reward', data);

describe('a referral reward in words', () => {
  it('names a percentage discount, the friend template’s default type', () => {
    expect(referralReward('friend', friend({ value: 10 }), 'EUR', 'en')).toBe('10% off their first order');
  });

  it('names points, the customer template’s default type, with digit groups and a singular', () => {
    expect(referralReward('customer', customer({ value: 1500 }), 'EUR', 'en')).toBe('1,500 points');
    expect(referralReward('customer', customer({ value: 1 }), 'EUR', 'en')).toBe('1 point');
    expect(referralReward('friend', friend({ rewardType: 'points', value: 100 }), 'EUR', 'en')).toBe('100 points on their first order');
  });

  it('names a fixed amount in the shop’s currency with the coupon’s minimum purchase', () => {
    const data = fixture('referral.friend_reward', 'valid-amount-with-minimum-purchase');
    expect(referralReward('friend', data, 'EUR', 'en')).toBe('€15.00 off their first order of €50.00 or more');
    expect(referralReward('customer', customer({ rewardType: 'amount_discount', value: 5 }), 'USD', 'en')).toBe('$5.00 off their next order');
  });

  it('names nothing for a reward switched off or without a value', () => {
    expect(referralReward('friend', friend({ value: 10, status: false }), 'EUR', 'en')).toBe('');
    expect(referralReward('friend', friend({}), 'EUR', 'en')).toBe('');
  });
});

describe('the referral program in one line', () => {
  it('says what the friend and the referrer get', () => {
    expect(referralSummary({ friend: friend({ value: 10 }), customer: customer({ value: 500 }) }, 'EUR', 'en')).toBe(
      'Friends get 10% off their first order; referrers get 500 points when their friend orders',
    );
  });

  it('says one side alone when the other is not set up or is off', () => {
    expect(referralSummary({ friend: friend({ value: 10 }), customer: null }, 'EUR', 'en')).toBe('Friends get 10% off their first order');
    expect(referralSummary({ friend: friend({ value: 10, status: false }), customer: customer({ value: 500 }) }, 'EUR', 'en')).toBe(
      'Referrers get 500 points when their friend orders',
    );
  });

  it('is empty when neither side gives anything', () => {
    expect(referralSummary({ friend: null, customer: undefined }, 'EUR', 'en')).toBe('');
    expect(referralSummary({ friend: friend({}), customer: customer({}) }, 'EUR', 'en')).toBe('');
  });

  it('writes amounts the admin’s language’s way', async () => {
    await i18n.changeLanguage('fr');
    // French writes a no-break space before the currency sign: compared as plain spaces.
    expect(referralSummary({ friend: friend({ rewardType: 'amount_discount', value: 5 }), customer: null }, 'EUR', 'fr').replace(/\s/g, ' ')).toBe(
      'Les amis obtiennent 5,00 € de réduction sur leur première commande',
    );
  });
});

describe('a VIP tier in one line', () => {
  const tier = (data: JsonObject) => defaults('tier.tier', { name: 'Gold', ...data });

  it('gives the base tier of the template’s defaults as all members, with nothing more', () => {
    expect(tierSummary(tier({}), 'EUR', 'en')).toBe('All members');
    expect(tierGives(tier({}), 'en')).toBe('');
  });

  it('names each entry method, with singulars', () => {
    expect(tierRequirement(tier({ entryRequirement: 1000 }), 'EUR', 'en')).toBe('From 1,000 points');
    expect(tierRequirement(tier({ entryRequirement: 1 }), 'EUR', 'en')).toBe('From 1 point');
    expect(tierRequirement(tier({ entryMethod: 'amount_spent', entryRequirement: 500 }), 'EUR', 'en')).toBe('From €500.00 spent');
    expect(tierRequirement(tier({ entryMethod: 'number_of_orders', entryRequirement: 5 }), 'EUR', 'en')).toBe('From 5 orders');
    expect(tierRequirement(tier({ entryMethod: 'number_of_orders', entryRequirement: 1 }), 'EUR', 'en')).toBe('From 1 order');
  });

  it('names a points multiplier perk by its multiplier', () => {
    expect(tierSummary(fixture('tier.tier', 'valid-points-multiplier'), 'EUR', 'en')).toBe('All members: 1.5× points on orders');
  });

  it('names the entry reward, then each other perk by its title and value', () => {
    expect(tierSummary(fixture('tier.tier', 'valid-base-tier-with-perks'), 'EUR', 'en')).toBe('All members: 200 bonus points on entry, Free gift wrapping, Deposit (20%)');
    expect(tierGives(tier({ entryReward: { earnPoint: 1 } }), 'en')).toBe('1 bonus point on entry');
  });

  it.each([
    ['custom_reward', 'Free shipping', undefined, 'Free shipping'],
    ['exclusive_products', 'Members-only collection', undefined, 'Members-only collection'],
    ['payment_terms', 'Payment terms', 'Net 30', 'Payment terms (Net 30)'],
    ['catalog_access', 'Wholesale catalog', undefined, 'Wholesale catalog'],
    ['deposit_percentage', 'Deposit', '20%', 'Deposit (20%)'],
  ])('names the %s perk by its title', (type, title, value, words) => {
    expect(tierGives(tier({ perks: [{ type, title, ...(value ? { value } : {}) }] }), 'en')).toBe(words);
  });

  it('names a points multiplier without a multiplier by its title, and skips a perk with no title', () => {
    expect(tierGives(tier({ perks: [{ type: 'points_multiplier', title: 'Double points' }, { type: 'custom_reward', title: '' }] }), 'en')).toBe('Double points');
  });

  it('names three things and counts the rest', () => {
    const perks = ['A', 'B', 'C', 'D'].map((title) => ({ type: 'custom_reward', title }));
    expect(tierGives(tier({ entryReward: { earnPoint: 50 }, perks }), 'en')).toBe('50 bonus points on entry, A, B, +2 more');
  });

  it('writes numbers and separators the admin’s language’s way', async () => {
    const data = tier({ entryRequirement: 1000, perks: [{ type: 'points_multiplier', title: 'x', multiplier: 1.5 }, { type: 'custom_reward', title: '送料無料' }] });
    await i18n.changeLanguage('de');
    expect(tierSummary(data, 'EUR', 'de')).toBe('Ab 1.000 Punkten: 1,5× Punkte auf Bestellungen, 送料無料');
    await i18n.changeLanguage('ja');
    expect(tierSummary(data, 'JPY', 'ja')).toBe('1,000ポイントから：注文ポイント1.5倍、送料無料');
  });
});

const kindsReply = { body: { data: registry.summaries('en') } };

describe('the referral screens', () => {
  const program = storedDoc('referral.program', defaults('referral.program', { status: true }));
  const friendDoc = storedDoc('referral.friend_reward', friend({ value: 10 }));
  const customerDoc = storedDoc('referral.customer_reward', customer({ value: 500 }));

  it('sums up both rewards on the referral program card', async () => {
    mockFetch({
      'GET /api/shops': shopReply,
      'GET /api/kinds': kindsReply,
      'GET /api/kinds/referral.program/docs': { body: { data: [program] } },
      'GET /api/kinds/referral.friend_reward/docs': { body: { data: [friendDoc] } },
      'GET /api/kinds/referral.customer_reward/docs': { body: { data: [customerDoc] } },
    });
    renderApp('/programs?type=referral');
    const card = (await screen.findByRole('heading', { name: 'Refer a friend' })).closest('section')!;
    expect(await within(card).findByText('Friends get 10% off their first order; referrers get 500 points when their friend orders')).toBeInTheDocument();
  });

  it('shows no summary on the card while no reward is set up', async () => {
    mockFetch({
      'GET /api/shops': shopReply,
      'GET /api/kinds': kindsReply,
      'GET /api/kinds/referral.program/docs': { body: { data: [program] } },
      'GET /api/kinds/referral.friend_reward/docs': { body: { data: [] } },
      'GET /api/kinds/referral.customer_reward/docs': { body: { data: [] } },
    });
    renderApp('/programs?type=referral');
    const card = (await screen.findByRole('heading', { name: 'Refer a friend' })).closest('section')!;
    expect(await within(card).findAllByText('Not set up')).toHaveLength(2);
    expect(within(card).queryByText(/Friends get|Referrers get/)).toBeNull();
  });

  it('follows the friend reward as it is edited, with the saved customer reward', async () => {
    mockFetch({
      'GET /api/shops': shopReply,
      'GET /api/kinds': kindsReply,
      'GET /api/kinds/referral.friend_reward': { body: { data: registry.localized('referral.friend_reward', 'en') } },
      'GET /api/kinds/referral.friend_reward/docs': { body: { data: [] } },
      'GET /api/kinds/referral.customer_reward/docs': { body: { data: [customerDoc] } },
    });
    renderApp('/programs/referral/friendReward');
    expect(await screen.findByText('Referrers get 500 points when their friend orders')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('radio', { name: 'Fixed amount discount' }));
    await userEvent.type(screen.getByLabelText(/^Value/), '5');
    expect(await screen.findByText('Friends get €5.00 off their first order; referrers get 500 points when their friend orders')).toBeInTheDocument();
  });

  it('sums up both saved rewards over the program settings', async () => {
    mockFetch({
      'GET /api/shops': shopReply,
      'GET /api/kinds': kindsReply,
      'GET /api/kinds/referral.program': { body: { data: registry.localized('referral.program', 'en') } },
      'GET /api/kinds/referral.program/docs': { body: { data: [program] } },
      'GET /api/kinds/referral.friend_reward/docs': { body: { data: [friendDoc] } },
      'GET /api/kinds/referral.customer_reward/docs': { body: { data: [customerDoc] } },
    });
    renderApp('/programs/referral');
    expect(await screen.findByText('Friends get 10% off their first order; referrers get 500 points when their friend orders')).toBeInTheDocument();
  });
});

describe('the VIP tier screens', () => {
  const gold = storedDoc('tier.tier', { ...fixture('tier.tier', 'valid-points-multiplier'), name: 'Gold', entryRequirement: 1000 }, { id: 't1' });
  const bronze = storedDoc('tier.tier', defaults('tier.tier', { name: 'Bronze' }), { id: 't0' });

  it('lists what each tier gives beside its entry requirement, and a dash for nothing', async () => {
    mockFetch({
      'GET /api/shops': shopReply,
      'GET /api/kinds': kindsReply,
      'GET /api/kinds/tier.tier/docs': { body: { data: [gold, bronze] } },
    });
    renderApp('/programs?type=tier');
    const table = await screen.findByRole('table', { name: 'VIP tiers' });
    await within(table).findByText('Gold');
    expect(within(table).getByRole('columnheader', { name: 'Gives' })).toBeInTheDocument();
    const [first, second] = within(table).getAllByRole('row').slice(1);
    expect(within(first!).getByText('—')).toBeInTheDocument();
    expect(within(second!).getByText('1.5× points on orders')).toBeInTheDocument();
  });

  it('sums up the tier over its editor, following the entry requirement as it is edited', async () => {
    mockFetch({
      'GET /api/shops': shopReply,
      'GET /api/kinds': kindsReply,
      'GET /api/kinds/tier.tier': { body: { data: registry.localized('tier.tier', 'en') } },
      'GET /api/kinds/tier.tier/docs/t1': { body: { data: gold } },
    });
    renderApp('/programs/tier/t1');
    expect(await screen.findByText('From 1,000 points: 1.5× points on orders')).toBeInTheDocument();
    const requirement = screen.getByLabelText(/^Entry requirement/);
    await userEvent.clear(requirement);
    await userEvent.type(requirement, '2500');
    expect(await screen.findByText('From 2,500 points: 1.5× points on orders')).toBeInTheDocument();
  });

  it('starts a new tier’s summary from the template’s defaults', async () => {
    mockFetch({
      'GET /api/shops': shopReply,
      'GET /api/kinds': kindsReply,
      'GET /api/kinds/tier.tier': { body: { data: registry.localized('tier.tier', 'en') } },
    });
    renderApp('/programs/tier/create');
    expect(await screen.findByText('All members')).toBeInTheDocument();
  });
});
