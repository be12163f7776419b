/**
 * Tiny factories for the program catalogue screens' fake server: kinds, stored documents and
 * program rows with defaults, so each test states only what it is about.
 */
import type { JsonObject, KindDetail, KindSummary, StoredDocument } from '../../engine/types';
import type { GateAnswer, ProgramRow } from '../../ui/api/endpoints';

export function gate(feature: string, unlockPlan: string | null = null): GateAnswer {
  return unlockPlan
    ? { feature, allowed: false, unlockPlan, reason: `${feature} needs the ${unlockPlan} plan; this shop is on Essential.` }
    : { feature, allowed: true, unlockPlan: null, reason: `${feature} is on this shop's plan.` };
}

export function kindSummary(id: string, overrides: Partial<KindSummary> = {}): KindSummary {
  const [family = 'earning', name = id] = id.split('.');
  return {
    id,
    family: family as KindSummary['family'],
    name,
    title: name.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase()),
    description: '',
    category: family === 'earning' || family === 'redeem' ? 'online_store' : null,
    feature: null,
    version: 1,
    singleton: false,
    gate: null,
    ...overrides,
  };
}

export function kindDetail(summary: KindSummary, schema: JsonObject, uiSchema: JsonObject = {}): KindDetail {
  return { ...summary, schema: { type: 'object', title: summary.title, ...schema }, uiSchema };
}

let nextId = 1;

export function storedDoc(kind: string, data: JsonObject, overrides: Partial<StoredDocument> = {}): StoredDocument {
  return {
    id: `d${nextId++}`,
    kind,
    schemaVersion: 1,
    version: 1,
    data,
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-01T00:00:00.000Z',
    ...overrides,
  };
}

export function programRow(kind: string, title: string, overrides: Partial<ProgramRow> = {}): ProgramRow {
  const status = overrides.status ?? false;
  const family = kind.split('.')[0];
  return {
    ...storedDoc(kind, { title, status }),
    type: family === 'redeem' ? 'spending' : 'earning',
    event: kind.split('.')[1] ?? kind,
    title,
    status,
    ...overrides,
  };
}

/** The catalogue's kinds as `GET /api/kinds` lists them; partner tiers gated on Shopify Plus. */
export const catalogueKinds: KindSummary[] = [
  kindSummary('earning.place_order', { title: 'Place an order', category: 'place_order' }),
  kindSummary('earning.sign_up', { title: 'Sign up' }),
  kindSummary('earning.milestone', { title: 'Milestone rewards', feature: 'milestone', gate: gate('milestone', 'Advanced') }),
  kindSummary('redeem.amount_discount', { title: 'Amount discount' }),
  kindSummary('referral.program', { title: 'Referral program', singleton: true }),
  kindSummary('referral.friend_reward', { title: 'Referral reward for the friend', singleton: true }),
  kindSummary('referral.customer_reward', { title: 'Referral reward for the customer', singleton: true }),
  kindSummary('tier.tier', { title: 'VIP tier', feature: 'vip_tiers', gate: gate('vip_tiers') }),
  kindSummary('tier.settings', { title: 'VIP tier settings', singleton: true, feature: 'vip_tiers', gate: gate('vip_tiers') }),
  kindSummary('tier.partner', { title: 'Partner tier', feature: 'partner_tier', gate: gate('partner_tier', 'Shopify Plus') }),
  kindSummary('membership.exclusive_deal', { title: 'Member exclusive deal', feature: 'member_exclusive_deal', gate: gate('member_exclusive_deal') }),
];

function summaryOf(id: string): KindSummary {
  const found = catalogueKinds.find((kind) => kind.id === id);
  if (!found) throw new Error(`catalogue-factories: no kind ${id}`);
  return found;
}

export const referralProgramKind = kindDetail(summaryOf('referral.program'), {
  required: ['title', 'status'],
  properties: {
    title: { type: 'string', title: 'Title', minLength: 1, default: 'Refer a friend' },
    description: { type: 'string', title: 'Description', default: '' },
    status: { type: 'boolean', title: 'Active', default: false },
  },
});

/** Two of the VIP settings objects are enough to show one tab at a time. */
export const tierSettingsKind = kindDetail(summaryOf('tier.settings'), {
  required: ['general', 'design'],
  properties: {
    general: {
      type: 'object',
      title: 'General settings',
      default: {},
      properties: { status: { type: 'boolean', title: 'VIP tiers on', default: false } },
    },
    design: {
      type: 'object',
      title: 'Design',
      default: {},
      properties: { cardColor: { type: 'string', title: 'Card color', default: '#5c6ac4' } },
    },
  },
});

export const tierKind = kindDetail(
  summaryOf('tier.tier'),
  {
    required: ['name', 'entryRequirement'],
    properties: {
      name: { type: 'string', title: 'Tier name', minLength: 1 },
      entryRequirement: { type: 'number', title: 'Entry requirement', minimum: 0, default: 0 },
      color: { type: 'string', title: 'Card color', default: '#5c6ac4' },
      entryReward: {
        type: 'object',
        title: 'Entry reward',
        default: {},
        properties: { earnPoint: { type: 'integer', title: 'Bonus points on entering the tier', default: 0 } },
      },
      perks: { type: 'array', title: 'Perks', default: [], items: { type: 'string', title: 'Perk' } },
    },
  },
  { 'ui:order': ['name', 'entryRequirement', '*'] },
);

export const dealKind = kindDetail(summaryOf('membership.exclusive_deal'), {
  required: ['name', 'discountValue'],
  properties: {
    name: { type: 'string', title: 'Deal name', minLength: 1 },
    status: { type: 'boolean', title: 'Active', default: false },
    discountValue: { type: 'number', title: 'Discount value' },
    design: { type: 'object', title: 'Design', default: {}, properties: { buttonColor: { type: 'string', title: 'Button color', default: '#000000' } } },
  },
});

export const partnerKind = kindDetail(summaryOf('tier.partner'), {
  required: ['name'],
  properties: {
    name: { type: 'string', title: 'Tier name', minLength: 1 },
    status: { type: 'boolean', title: 'Active', default: false },
  },
});
