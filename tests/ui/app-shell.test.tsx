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

  it('draws no chrome of its own when embedded and hands the admin a ui-nav-menu with the dashboard as home', async () => {
    window.history.replaceState({}, '', '/embed/programs');
    mockFetch({ 'GET /api/shops': shopReply });
    renderApp('/elsewhere');
    await screen.findByRole('main');
    expect(screen.queryByRole('navigation', { name: 'Main' })).toBeNull();
    expect(screen.queryByRole('banner')).toBeNull();
    const menu = document.querySelector('ui-nav-menu');
    expect(menu).not.toBeNull();
    const links = [...menu!.querySelectorAll('a')];
    expect(links[0]).toHaveAttribute('rel', 'home');
    expect(links[0]).toHaveTextContent('Dashboard');
    expect(links.map((a) => a.textContent)).toEqual(['Dashboard', 'Customers', 'Reward programs', 'Membership', 'Onsite', 'Analytics', 'Integrations', 'Settings']);
  });
});
