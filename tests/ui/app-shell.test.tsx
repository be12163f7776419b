// @vitest-environment jsdom
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { detectBasename } from '../../ui/embedded';
import { mockFetch, renderApp, shopReply } from './helpers';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  sessionStorage.clear();
  window.history.replaceState({}, '', '/');
});

describe('app shell', () => {
  it('uses /embed as the router basename only for embedded addresses', () => {
    expect(detectBasename('/embed/programs')).toBe('/embed');
    expect(detectBasename('/embed')).toBe('/embed');
    expect(detectBasename('/embedded/programs')).toBeUndefined();
    expect(detectBasename('/programs')).toBeUndefined();
  });

  it('lists the spec side navigation', async () => {
    mockFetch({ 'GET /api/shops': shopReply });
    renderApp('/elsewhere');
    const nav = await screen.findByRole('navigation', { name: 'Main' });
    const names = ['Dashboard', 'Customers', 'Reward programs', 'Membership', 'Onsite', 'Analytics', 'Integrations', 'Settings'];
    expect(within(nav).getAllByRole('link')).toHaveLength(names.length);
    for (const name of names) expect(within(nav).getByRole('link', { name })).toBeInTheDocument();
    expect(within(nav).getByRole('link', { name: 'Reward programs' })).not.toHaveAttribute('aria-current');
    expect(await screen.findByText('Demo Shop')).toBeInTheDocument();
  });

  it('leaves Dashboard out of the embedded navigation', async () => {
    window.history.replaceState({}, '', '/embed/programs');
    mockFetch({ 'GET /api/shops': shopReply });
    renderApp('/elsewhere');
    const nav = await screen.findByRole('navigation', { name: 'Main' });
    expect(within(nav).queryByRole('link', { name: /Dashboard/ })).toBeNull();
    expect(within(nav).getByRole('link', { name: /Reward programs/ })).toBeInTheDocument();
  });
});
