// @vitest-environment jsdom
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { getSessionToken, SESSION_TOKEN_KEY } from '../../ui/api/session';
import { callsTo, mockFetch, renderApp, shopReply } from './helpers';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  sessionStorage.clear();
  delete window.shopify;
});

describe('Sign-in and session', () => {
  it('sends a visitor without a session to /auth/login', async () => {
    mockFetch({ 'GET /auth/config': { body: { demo: false, shopDomain: null } } });
    const { router } = renderApp('/programs', { signedIn: false });
    expect(await screen.findByText('Open this app from your shop admin to sign in.')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/auth/login');
  });

  it('signs in to the demo shop, keeps the token and opens the programs', async () => {
    const fetchMock = mockFetch({
      'GET /auth/config': { body: { demo: true, shopDomain: 'demo.myshopify.com' } },
      'POST /auth/demo-login': { body: { token: 'demo-token', shopDomain: 'demo.myshopify.com' } },
      'GET /api/shops': shopReply,
      'GET /api/kinds': { body: { data: [] } },
      'GET /api/lp/programs/earning': { body: { data: [] } },
    });
    const { router } = renderApp('/auth/login', { signedIn: false });
    expect(await screen.findByRole('heading', { name: 'Sign in to the demo shop (demo.myshopify.com)' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/programs'));
    expect(sessionStorage.getItem(SESSION_TOKEN_KEY)).toBe('demo-token');
    await screen.findByRole('heading', { name: 'No earning programs yet' });
    expect(callsTo(fetchMock, 'GET', '/api/kinds')[0]?.headers.Authorization).toBe('Bearer demo-token');
  });

  it('drops the token and returns to sign-in when the API answers 401', async () => {
    mockFetch({
      'GET /auth/config': { body: { demo: false, shopDomain: null } },
      'GET /api/shops': { status: 401, body: { error: { code: 'unauthorized', message: 'Session expired' } } },
      'GET /api/kinds': { status: 401, body: { error: { code: 'unauthorized', message: 'Session expired' } } },
      'GET /api/lp/programs/earning': { status: 401, body: { error: { code: 'unauthorized', message: 'Session expired' } } },
    });
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const { router } = renderApp('/programs');
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth/login'));
    expect(sessionStorage.getItem(SESSION_TOKEN_KEY)).toBeNull();
  });

  it('uses the App Bridge session token when embedded', async () => {
    window.shopify = { idToken: async () => 'bridge-token' };
    sessionStorage.setItem(SESSION_TOKEN_KEY, 'stale');
    expect(await getSessionToken()).toBe('bridge-token');
  });
});
