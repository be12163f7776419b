// @vitest-environment jsdom
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { JsonObject } from '../../engine/types';
import { json, renderForm, urlOf } from './form-harness';

const catalog = {
  fields: [
    { id: 'product.title', label: 'Product title', criteria: 'product', type: 'string' },
    { id: 'collection.id', label: 'Collection ID', criteria: 'collection', type: 'list' },
    { id: 'order.total_price', label: 'Order total', criteria: 'order', type: 'money' },
    { id: 'customer.tag', label: 'Customer tag', criteria: 'customer', type: 'list' },
  ],
  operators: [
    { name: 'contains', label: 'contains', needsValue: true },
    { name: 'greater_than', label: 'is greater than', needsValue: true },
    { name: 'empty', label: 'is empty', needsValue: false },
  ],
};

let fetchMock: ReturnType<typeof vi.fn>;
beforeEach(() => {
  fetchMock = vi.fn(async (input: RequestInfo | URL) =>
    urlOf(input).pathname === '/api/rules/catalog' ? json({ data: catalog }) : json({ error: { code: 'not_found', message: 'No mock' } }, 404),
  );
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const setup = (conditions: JsonObject[] = []) =>
  renderForm({
    properties: {
      conditions: {
        type: 'array',
        title: 'Conditions',
        maxItems: 2,
        items: {
          type: 'object',
          required: ['field', 'typeMatch'],
          properties: { field: { type: 'string' }, typeMatch: { type: 'string' }, content: { type: 'string', default: '' } },
        },
      },
    },
    uiSchema: { conditions: { 'ui:field': 'conditionBuilder', items: { content: { 'ui:placeholder': 'e.g. summer, sale' } } } },
    formData: { conditions },
  });

describe('conditionBuilder field', () => {
  it('groups the catalog\'s fields by criteria: Product, Order, Customer, Collection', async () => {
    setup();
    await userEvent.click(await screen.findByRole('button', { name: '+ Add condition' }));
    const field = within(screen.getByRole('group', { name: 'Condition 1' })).getByRole('combobox', { name: 'Field' });
    expect(within(field).getAllByRole('group').map((group) => group.getAttribute('label'))).toEqual(['Product', 'Order', 'Customer', 'Collection']);
    expect(within(within(field).getByRole('group', { name: 'Order' })).getByRole('option')).toHaveTextContent('Order total');
    expect(fetchMock).toHaveBeenCalledOnce();
  });

  it('adds a condition, hides the value for "is empty" and stores { field, typeMatch, content }', async () => {
    const { latest } = setup();
    await userEvent.click(await screen.findByRole('button', { name: '+ Add condition' }));
    expect(latest()).toEqual({ conditions: [{ field: 'product.title', typeMatch: 'contains', content: '' }] });

    const row = within(screen.getByRole('group', { name: 'Condition 1' }));
    await userEvent.selectOptions(row.getByRole('combobox', { name: 'Field' }), 'Customer tag');
    await userEvent.type(row.getByRole('textbox', { name: 'Value' }), 'vip');
    expect(latest()).toEqual({ conditions: [{ field: 'customer.tag', typeMatch: 'contains', content: 'vip' }] });

    await userEvent.selectOptions(row.getByRole('combobox', { name: 'Operator' }), 'is empty');
    expect(row.queryByRole('textbox', { name: 'Value' })).not.toBeInTheDocument();
    expect(latest()).toEqual({ conditions: [{ field: 'customer.tag', typeMatch: 'empty', content: '' }] });

    await userEvent.selectOptions(row.getByRole('combobox', { name: 'Operator' }), 'is greater than');
    expect(row.getByRole('textbox', { name: 'Value' })).toHaveAttribute('placeholder', 'e.g. summer, sale');
  });

  it('shows stored conditions and removes one', async () => {
    const { latest } = setup([
      { field: 'order.total_price', typeMatch: 'greater_than', content: '50' },
      { field: 'product.title', typeMatch: 'empty', content: '' },
    ]);
    const first = within(await screen.findByRole('group', { name: 'Condition 1' }));
    expect(await first.findByRole('option', { name: 'Order total', selected: true })).toBeInTheDocument();
    expect(first.getByRole('textbox', { name: 'Value' })).toHaveValue('50');
    // Two of at most two: nothing more to add.
    expect(screen.queryByRole('button', { name: '+ Add condition' })).not.toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Remove condition 1' }));
    expect(latest()).toEqual({ conditions: [{ field: 'product.title', typeMatch: 'empty', content: '' }] });
  });
});
