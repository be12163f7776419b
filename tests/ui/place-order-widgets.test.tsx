// @vitest-environment jsdom
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadRegistry } from '../../engine/registry';
import { withDefaults } from '../../ui/form/form-data';
import { json, renderForm, urlOf } from './form-harness';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** The real place-order template, bundled as `GET /api/kinds/earning.place_order` serves it. */
const kind = loadRegistry(join(import.meta.dirname, '../../schemas'), { only: 'earning.place_order' }).get('earning.place_order')!;

const replies: Record<string, unknown> = {
  '/api/rules/catalog': {
    fields: [{ id: 'order.total_price', label: 'Order total', criteria: 'order', type: 'money' }],
    operators: [{ name: 'greater_than', label: 'is greater than', needsValue: true }],
  },
  '/api/catalog/products': [{ id: '7000000000000000001', title: 'The Collection Snowboard: Hydrogen', vendor: 'Hydrogen Vendor', productType: 'Snowboards', price: '59.00', tags: [], collectionIds: [], variants: [] }],
  '/api/kinds/tier.tier/docs': [{ id: 't-gold', kind: 'tier.tier', schemaVersion: 1, version: 1, data: { name: 'Gold', entryRequirement: 500, color: '#c9a227' }, createdAt: '', updatedAt: '' }],
};

function setup() {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      const path = urlOf(input).pathname;
      return path in replies ? json({ data: replies[path] }) : json({ error: { code: 'not_found', message: `No mock for ${path}` } }, 404);
    }),
  );
  return renderForm({ schema: kind.schema, uiSchema: kind.uiSchema, formData: withDefaults(kind.schema), timezone: 'America/New_York' });
}

describe('the place-order form with its ui.json', () => {
  it('draws the product lists as pickers, the dates in store time, the tiers and the condition builder', async () => {
    const { latest } = setup();
    expect(screen.getByLabelText('Only these products earn points')).toHaveRole('searchbox');
    expect(screen.getByLabelText('These products never earn points')).toHaveRole('searchbox');
    expect(screen.getByLabelText('Start date')).toHaveAccessibleDescription(expect.stringContaining('Store time (America/New_York)'));
    // The tiers and the conditions show once their switches are on (ui.json showWhen).
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Who can earn' }), 'Specific tiers');
    expect(within(await screen.findByRole('group', { name: 'Tiers' })).getByRole('checkbox', { name: 'Gold' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('switch', { name: 'Only earn when conditions are met' }));

    const conditions = screen.getByRole('group', { name: 'Conditions' });
    await userEvent.click(await within(conditions).findByRole('button', { name: '+ Add condition' }));
    await userEvent.type(within(conditions).getByRole('textbox', { name: 'Value' }), '50');
    expect(latest()?.conditions).toEqual([{ field: 'order.total_price', typeMatch: 'greater_than', content: '50' }]);
  });
});
