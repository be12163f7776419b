// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { JsonObject } from '../../engine/types';
import productIds from '../../schemas/_shared/product-ids.json';
import { json, renderForm, urlOf } from './form-harness';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const product = (id: string, title: string) => ({ id, title, vendor: 'Hydrogen Vendor', productType: 'Snowboards', price: '10.00', tags: [], collectionIds: [], variants: [] });

const catalogue = [
  product('7000000000000000001', 'The Collection Snowboard: Hydrogen'),
  product('7000000000000000138', 'The Collection Snowboard: Oxygen'),
  product('7000000000000000200', 'Gift Card'),
  // Already selected in the "full" test: 99 products of a big shop.
  ...Array.from({ length: 99 }, (_, i) => product(String(8000000000000000000n + BigInt(i)), `Sticker ${i + 1}`)),
];

/** The catalogue routes: `?query=` searches titles, `?ids=` looks up (at most 50 per call, as the server). */
function mockCatalogue() {
  const fetchMock = vi.fn(async (input: RequestInfo | URL) => {
    const url = urlOf(input);
    if (url.pathname !== '/api/catalog/products') return json({ error: { code: 'not_found', message: 'No mock' } }, 404);
    const ids = url.searchParams.get('ids');
    const query = (url.searchParams.get('query') ?? '').toLowerCase();
    const data = ids !== null ? catalogue.filter((p) => ids.split(',').includes(p.id)) : catalogue.filter((p) => p.title.toLowerCase().includes(query));
    return json({ data: data.slice(0, 50) });
  });
  vi.stubGlobal('fetch', fetchMock);
  const searches = () => fetchMock.mock.calls.map(([input]) => urlOf(input)).filter((url) => url.searchParams.has('query')).map((url) => url.searchParams.get('query'));
  return { fetchMock, searches };
}

function setup(selected: string[] = []) {
  return renderForm({
    // The real shared definition: at most 100 specific products (spec 001 §4).
    properties: { includeProducts: { ...(productIds as JsonObject), title: 'Only these products earn points' } },
    uiSchema: { includeProducts: { 'ui:widget': 'productPicker' } },
    formData: { includeProducts: selected },
  });
}

describe('productPicker widget', () => {
  it('searches once the merchant pauses typing, then selects, shows the tag by title and removes it', async () => {
    const { searches } = mockCatalogue();
    const { latest } = setup();
    await userEvent.type(screen.getByLabelText('Only these products earn points'), 'oxy');

    const results = await screen.findByRole('list', { name: 'Search results' });
    await waitFor(() => expect(within(results).getAllByRole('checkbox')).toHaveLength(1));
    expect(searches()).not.toContain('o');
    expect(searches()).not.toContain('ox');
    expect(searches().filter((query) => query === 'oxy')).toHaveLength(1);

    await userEvent.click(within(results).getByRole('checkbox', { name: /Oxygen/ }));
    expect(latest()).toEqual({ includeProducts: ['7000000000000000138'] });
    const tags = screen.getByRole('list', { name: 'Selected' });
    expect(tags).toHaveTextContent('The Collection Snowboard: Oxygen');

    await userEvent.click(within(tags).getByRole('button', { name: 'Remove The Collection Snowboard: Oxygen' }));
    expect(latest()).toEqual({ includeProducts: [] });
    expect(screen.queryByRole('list', { name: 'Selected' })).not.toBeInTheDocument();
  });

  it('shows titles for products selected before', async () => {
    const { fetchMock } = mockCatalogue();
    setup(['7000000000000000001']);
    expect(await screen.findByText('The Collection Snowboard: Hydrogen')).toBeInTheDocument();
    expect(urlOf(fetchMock.mock.calls[0]![0]).search).toBe('?ids=7000000000000000001');
  });

  it('moves from the search box into the results with the arrow keys and ticks with Space', async () => {
    mockCatalogue();
    const { latest } = setup();
    await userEvent.type(screen.getByLabelText('Only these products earn points'), 'snowboard');
    await waitFor(() => expect(screen.getAllByRole('checkbox')).toHaveLength(2));
    await userEvent.keyboard('{ArrowDown}{ArrowDown}');
    expect(screen.getByRole('checkbox', { name: /Oxygen/ })).toHaveFocus();
    await userEvent.keyboard(' ');
    expect(latest()).toEqual({ includeProducts: ['7000000000000000138'] });
  });

  it('stops at 100 products with the spec message', async () => {
    mockCatalogue();
    const stickers = catalogue.slice(3).map((p) => p.id);
    const { latest } = setup(stickers);
    expect(await screen.findByText('Sticker 99')).toBeInTheDocument();
    expect(screen.getByText('Sticker 1')).toBeInTheDocument();

    await userEvent.type(screen.getByLabelText('Only these products earn points'), 'snowboard');
    await waitFor(() => expect(screen.getAllByRole('checkbox')).toHaveLength(2));
    await userEvent.click(screen.getByRole('checkbox', { name: /Snowboard: Hydrogen/ }));

    expect(latest()?.includeProducts).toHaveLength(100);
    expect(screen.getByRole('status')).toHaveTextContent('You can select at most 100 products. Use a collection instead.');
    expect(screen.getByRole('checkbox', { name: /Oxygen/ })).toBeDisabled();
    await userEvent.click(screen.getByRole('checkbox', { name: /Oxygen/ }));
    expect(latest()?.includeProducts).toHaveLength(100);
  });
});
