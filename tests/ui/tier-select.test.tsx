// @vitest-environment jsdom
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, renderForm, urlOf } from './form-harness';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const tier = (id: string, name: string, entryRequirement: number) => ({
  id,
  kind: 'tier.tier',
  schemaVersion: 1,
  version: 1,
  data: { name, entryRequirement, color: '#5c6ac4' },
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
});

function mockTiers(docs: unknown[]) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL) =>
    urlOf(input).pathname === '/api/kinds/tier.tier/docs' ? json({ data: docs, count: docs.length }) : json({ error: { code: 'not_found', message: 'No mock' } }, 404),
  );
  vi.stubGlobal('fetch', fetchMock);
}

const setup = () =>
  renderForm({
    properties: { eligibleTiers: { type: 'array', title: 'Tiers', uniqueItems: true, items: { type: 'string', minLength: 1 }, default: [] } },
    uiSchema: { eligibleTiers: { 'ui:widget': 'tierSelect' } },
    formData: { eligibleTiers: [] },
  });

describe('tierSelect widget', () => {
  it('lists the shop\'s tiers from the lowest entry requirement and stores the ticked ids', async () => {
    mockTiers([tier('t-gold', 'Gold', 500), tier('t-silver', 'Silver', 100)]);
    const { latest } = setup();
    const group = await screen.findByRole('group', { name: 'Tiers' });
    expect(within(group).getAllByRole('checkbox').map((box) => box.closest('label')?.textContent)).toEqual(['Silver', 'Gold']);
    await userEvent.click(within(group).getByRole('checkbox', { name: 'Gold' }));
    expect(latest()).toEqual({ eligibleTiers: ['t-gold'] });
  });

  it('says there are no tiers yet and links to creating one', async () => {
    mockTiers([]);
    setup();
    expect(await screen.findByText('No tiers yet')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Create a tier' })).toHaveAttribute('href', '/programs/tier/create');
  });
});
