import { render } from '@testing-library/react';
import { createStore, Provider } from 'jotai';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { vi } from 'vitest';
import { discoveringRoutes, redirectUnauthorizedWith } from '../../ui/app';
import { screenRoutes } from '../../ui/screens';
import { SESSION_TOKEN_KEY } from '../../ui/api/session';
import type { ReactNode } from 'react';

/** One answer of the fake server. */
export interface Reply {
  status?: number;
  body?: unknown;
}

export type Handler = Reply | ((request: { method: string; path: string; body: unknown }) => Reply);

/**
 * Replaces `fetch` with a route table keyed by `"METHOD /path"` (query included). Unknown routes
 * answer 404 so a missing mock shows up as a failing screen, not a hang.
 */
export function mockFetch(table: Record<string, Handler>) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const method = init?.method ?? 'GET';
    const path = typeof input === 'string' ? input : input.toString();
    const body: unknown = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    const handler = table[`${method} ${path}`];
    const reply: Reply = !handler
      ? { status: 404, body: { error: { code: 'not_found', message: `No mock for ${method} ${path}` } } }
      : typeof handler === 'function'
        ? handler({ method, path, body })
        : handler;
    return new Response(reply.body === undefined ? null : JSON.stringify(reply.body), {
      status: reply.status ?? 200,
      headers: { 'Content-Type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

/** The calls made with one method and path, with their parsed JSON bodies. */
export function callsTo(fetchMock: ReturnType<typeof mockFetch>, method: string, path: string) {
  return fetchMock.mock.calls
    .filter(([input, init]) => (init?.method ?? 'GET') === method && String(input) === path)
    .map(([, init]) => ({
      body: typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined,
      headers: (init?.headers ?? {}) as Record<string, string>,
    }));
}

/**
 * Mounts the whole app (routes, chrome, toasts) at `path`, signed in unless told otherwise. The
 * router starts with the landing screens' routes and discovers the rest, as the app's does.
 */
export function renderApp(path: string, { signedIn = true }: { signedIn?: boolean } = {}) {
  if (signedIn) sessionStorage.setItem(SESSION_TOKEN_KEY, 'test-token');
  const { routes, patchRoutesOnNavigation } = discoveringRoutes(() => Promise.resolve(screenRoutes));
  const router = createMemoryRouter(routes, { initialEntries: [path], patchRoutesOnNavigation });
  redirectUnauthorizedWith(router);
  const store = createStore();
  const view = render(
    <Provider store={store}>
      <RouterProvider router={router} />
    </Provider>,
  );
  return { ...view, router, store };
}

/** Wraps a component in a fresh jotai store. */
export function withStore(children: ReactNode) {
  return <Provider store={createStore()}>{children}</Provider>;
}

export const shopReply: Reply = {
  body: {
    shop: { id: 's1', name: 'Demo Shop', domain: 'demo.myshopify.com', plan: 'free', currency: 'EUR', ianaTimezone: 'UTC' },
    shopInfo: { currency: 'EUR', ianaTimezone: 'UTC', planName: 'basic', shopOwner: 'Dana' },
  },
};
