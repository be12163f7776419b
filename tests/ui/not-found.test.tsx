// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ErrorPage } from '../../ui/pages/ErrorPage';
import { mockFetch, renderApp, shopReply } from './helpers';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  sessionStorage.clear();
});

const title = "The page you're looking for couldn't be found";

describe('Not Found', () => {
  it('answers an unknown path with the Not Found screen and a Contact us mail link, inside the admin chrome', async () => {
    mockFetch({ 'GET /api/shops': shopReply });
    renderApp('/no/such/page');
    expect(await screen.findByRole('heading', { name: title })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Contact us' })).toHaveAttribute('href', expect.stringMatching(/^mailto:/));
    expect(screen.getByRole('navigation', { name: 'Main' })).toBeInTheDocument();
  });

  it('shows a side navigation entry without its screen yet as a card naming what it will hold, not Not Found', async () => {
    mockFetch({ 'GET /api/shops': shopReply });
    renderApp('/analytics');
    expect(await screen.findByRole('heading', { name: 'Analytics', level: 1 })).toBeInTheDocument();
    expect(screen.getByText('This screen is on its way')).toBeInTheDocument();
    expect(screen.getByText(/points issued and redeemed, members, referrals/)).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: title })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Analytics/ })).toHaveAttribute('aria-current', 'page');
  });

  it('names an integration page by the integration', async () => {
    mockFetch({ 'GET /api/shops': shopReply });
    renderApp('/integration/judgeme');
    expect(await screen.findByRole('heading', { name: 'Judge.me', level: 1 })).toBeInTheDocument();
  });

  it('shows the same screen, explaining a technical problem, when a screen crashes', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    function Broken(): never {
      throw new Error('boom');
    }
    const router = createMemoryRouter([{ path: '/', element: <Broken />, errorElement: <ErrorPage /> }]);
    render(<RouterProvider router={router} />);
    expect(await screen.findByRole('heading', { name: title })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('technical problem');
    expect(screen.getByRole('link', { name: 'Contact us' })).toBeInTheDocument();
  });
});
