// @vitest-environment jsdom
/**
 * Editors drawn as cards (issue 12 walkthrough "editors grouped into cards"; ui.json `ui:groups`,
 * ui/form/templates/ObjectFieldTemplate.tsx): each group a titled card of its fields in the form's
 * order, a "*" group taking the fields no group names, a card with nothing to show left out, card
 * titles in the admin's language; and the place-order fields that do not apply to the chosen way
 * of earning hidden.
 */
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadRegistry } from '../../engine/registry';
import { withDefaults } from '../../ui/form/form-data';
import { json, renderForm, urlOf } from './form-harness';
import { mockFetch, renderApp, shopReply } from './helpers';
import type { JsonObject } from '../../engine/types';
import { programGives } from '../../ui/pages/ProgramsTable';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const registry = loadRegistry(join(import.meta.dirname, '../../schemas'));

function stubFetch() {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => json({ error: { code: 'not_found', message: `No mock for ${urlOf(input).pathname}` } }, 404)),
  );
}

const card = (title: string) => screen.getByRole('region', { name: title });
const cardTitles = () => screen.getAllByRole('region').map((r) => within(r).getByRole('heading', { level: 2 }).textContent);

describe('editor cards', () => {
  it('lays the place-order editor out as its ui.json groups, each field in its card', () => {
    stubFetch();
    const kind = registry.get('earning.place_order')!;
    renderForm({ schema: kind.schema, uiSchema: kind.uiSchema, formData: withDefaults(kind.schema) });
    expect(cardTitles()).toEqual(['Program', 'Points', 'What earns points', 'Conditions', 'Schedule and priority', 'Who can earn', 'Limits']);
    expect(within(card('Program')).getByLabelText(/Program name/)).toBeInTheDocument();
    expect(within(card('Points')).getByLabelText(/Points earned/)).toBeInTheDocument();
    expect(within(card('Schedule and priority')).getByLabelText(/Priority/)).toBeInTheDocument();
    expect(within(card('Limits')).getByRole('switch', { name: /Anti-cheat/ })).toBeInTheDocument();
  });

  it('shows the rate that applies to the way of earning, and no rounding for fixed points', async () => {
    stubFetch();
    const kind = registry.get('earning.place_order')!;
    renderForm({ schema: kind.schema, uiSchema: kind.uiSchema, formData: withDefaults(kind.schema) });
    const points = card('Points');
    expect(within(points).getByLabelText(/For every amount spent/)).toBeInTheDocument();
    expect(within(points).queryByLabelText(/For every number of items/)).toBeNull();
    await userEvent.click(within(points).getByRole('radio', { name: /Quantity/ }));
    expect(within(points).getByLabelText(/For every number of items/)).toBeInTheDocument();
    expect(within(points).queryByLabelText(/For every amount spent/)).toBeNull();
    await userEvent.click(within(points).getByRole('radio', { name: /Fixed points per order/ }));
    expect(within(points).queryByLabelText(/Rounding/)).toBeNull();
  });

  it('puts the fields no group names in the "*" group, and leaves out a card with nothing to show', () => {
    stubFetch();
    renderForm({
      properties: { name: { type: 'string', title: 'Name' }, note: { type: 'string', title: 'Note' }, hidden: { type: 'boolean', title: 'Hidden' }, extra: { type: 'string', title: 'Extra' } },
      uiSchema: {
        'ui:groups': [
          { title: 'First', fields: ['name', '*'] },
          { title: 'Empty', fields: ['hidden'] },
          { title: 'Last', fields: ['note'] },
        ],
        hidden: { 'ui:widget': 'hidden' },
      },
    });
    expect(cardTitles()).toEqual(['First', 'Last']);
    expect(within(card('First')).getByLabelText('Extra')).toBeInTheDocument();
    expect(within(card('Last')).getByLabelText('Note')).toBeInTheDocument();
  });

  it('titles the cards in the admin’s language', () => {
    stubFetch();
    const french = registry.localized('earning.place_order', 'fr')!;
    renderForm({ schema: french.schema, uiSchema: french.uiSchema, formData: withDefaults(french.schema) });
    expect(cardTitles()).toContain('Calendrier et priorité');
    expect(cardTitles()).toContain('Programme');
  });
});

describe('a reward editor', () => {
  it('sums up the reward in one line over its cards, following the edits', async () => {
    const kind = registry.localized('redeem.amount_discount', 'en')!;
    mockFetch({
      'GET /api/shops': shopReply,
      'GET /api/kinds': { body: { data: registry.summaries('en') } },
      'GET /api/kinds/redeem.amount_discount': { body: { data: kind } },
      'GET /api/lp/programs/spending': { body: { data: [] } },
    });
    renderApp('/programs/amount_discount/new');
    expect(await screen.findByText('Reward: 500 points → €5.00 off')).toBeInTheDocument();
    expect(cardTitles()).toEqual(['Reward', 'Points to spend', 'Discount code', 'Who can redeem', 'Schedule', 'Image']);
    const cost = within(card('Reward')).getByLabelText(/Points cost/);
    await userEvent.clear(cost);
    await userEvent.type(cost, '250');
    expect(await screen.findByText('Reward: 250 points → €5.00 off')).toBeInTheDocument();
  });
});

describe('a milestone program', () => {
  it('sums up its steps in one line over the editor, lowest target first', async () => {
    const kind = registry.localized('earning.milestone', 'en')!;
    mockFetch({
      'GET /api/shops': shopReply,
      'GET /api/kinds': { body: { data: registry.summaries('en') } },
      'GET /api/kinds/earning.milestone': { body: { data: kind } },
      'GET /api/lp/programs/earning': { body: { data: [] } },
      'GET /api/lp/programs/spending': { body: { data: [] } },
    });
    renderApp('/programs/milestone/new');
    // The template's default steps: 100, 200 and 300 bonus points at 1, 5 and 10.
    expect(await screen.findByText('Milestone rewards: 3 milestones, 100 points … 300 points')).toBeInTheDocument();
  });

  it('names each kind of step reward in the programs list, in the admin’s currency', () => {
    const data: JsonObject = {
      milestones: [
        { value: 10, action: 'free_shipping' },
        { value: 1, action: 'amount', discountValue: 5 },
        { value: 5, action: 'bonus_point', earnPoint: 200 },
      ],
    };
    expect(programGives({ kind: 'earning.milestone', data }, 'EUR', 'en')).toBe('3 milestones, €5.00 off … free shipping');
    expect(programGives({ kind: 'earning.milestone', data: { milestones: [{ value: 3, action: 'percentage', discountValue: 15 }] } }, 'EUR', 'en')).toBe('1 milestone, 15% off');
    expect(programGives({ kind: 'earning.milestone', data: { milestones: [{ value: 3, action: 'give_product' }, { value: 1, action: 'bonus_point' }] } }, 'EUR', 'en')).toBe('1 milestone, a free product');
    expect(programGives({ kind: 'earning.milestone', data: { milestones: [] } }, 'EUR', 'en')).toBe('');
  });
});
