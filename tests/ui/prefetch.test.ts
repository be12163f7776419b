// @vitest-environment jsdom
/**
 * The landing screen's prefetched API answers (issue 12 LCP; vite.config.ts PREFETCH_SOURCE,
 * ui/api/prefetch.ts): the app's first GET of a prefetched path takes the answer the preload
 * script started instead of asking again; only once, only for the same token, only while fresh,
 * and a failed prefetch falls back to asking.
 */
import { act, renderHook, waitFor } from '@testing-library/react';
import { getDefaultStore } from 'jotai';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { request } from '../../ui/api/client';
import { primeLandingScreen, takePendingShop } from '../../ui/api/landing';
import { PREFETCH_FRESH_MS } from '../../ui/api/prefetch';
import { clearPrimed, primeResource, takePrimed } from '../../ui/api/primed';
import { SESSION_TOKEN_KEY } from '../../ui/api/session';
import { useResource } from '../../ui/api/use-resource';
import { shopAtom } from '../../ui/state/session';

const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });

function prefetch(path: string, response: Promise<Response>, auth = 'Bearer t1', at = Date.now()) {
  window.__loyaltyPrefetch = { ...(window.__loyaltyPrefetch ?? {}), [path]: { auth, at, response } };
}

afterEach(() => {
  vi.unstubAllGlobals();
  delete window.__loyaltyPrefetch;
  sessionStorage.clear();
  clearPrimed();
  getDefaultStore().set(shopAtom, null);
});

describe('prefetched answers', () => {
  it('answers the first GET of the path from the prefetch, and asks the server for the next one', async () => {
    sessionStorage.setItem(SESSION_TOKEN_KEY, 't1');
    const fetchMock = vi.fn(async () => json({ data: 'from the server' }));
    vi.stubGlobal('fetch', fetchMock);
    prefetch('/api/shops', Promise.resolve(json({ data: 'prefetched' })));
    expect(await request<{ data: string }>('/api/shops')).toEqual({ data: 'prefetched' });
    expect(fetchMock).not.toHaveBeenCalled();
    expect(await request<{ data: string }>('/api/shops')).toEqual({ data: 'from the server' });
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('ignores a prefetch made with another token, a stale one, and asks again when the prefetch failed', async () => {
    sessionStorage.setItem(SESSION_TOKEN_KEY, 't1');
    const fetchMock = vi.fn(async () => json({ data: 'from the server' }));
    vi.stubGlobal('fetch', fetchMock);
    prefetch('/api/shops', Promise.resolve(json({ data: 'other shop' })), 'Bearer someone-else');
    prefetch('/api/kinds', Promise.resolve(json({ data: 'old' })), 'Bearer t1', Date.now() - PREFETCH_FRESH_MS - 1);
    prefetch('/api/lp/programs/earning', Promise.reject(new TypeError('Failed to fetch')));
    expect(await request('/api/shops')).toEqual({ data: 'from the server' });
    expect(await request('/api/kinds')).toEqual({ data: 'from the server' });
    expect(await request('/api/lp/programs/earning')).toEqual({ data: 'from the server' });
    expect(fetchMock).toHaveBeenCalledTimes(3);
  });

  it('never answers a write from a prefetch', async () => {
    sessionStorage.setItem(SESSION_TOKEN_KEY, 't1');
    const fetchMock = vi.fn(async () => json({ data: 'saved' }));
    vi.stubGlobal('fetch', fetchMock);
    prefetch('/api/shops', Promise.resolve(json({ data: 'prefetched' })));
    expect(await request('/api/shops', { method: 'POST', body: { a: 1 } })).toEqual({ data: 'saved' });
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });
});

describe('the landing screen drawn once, with its content (ui/api/landing.ts, ui/api/primed.ts)', () => {
  const shop = { shop: { domain: 'demo.myshopify.com', name: 'Demo', currency: 'EUR' } };
  const programs = [{ id: 'p1', kind: 'earning.place_order', title: 'Orders' }];
  const kinds = [{ id: 'earning.place_order', title: 'Place an order' }];

  it('reads the prefetched shop, program list and kinds of /programs before the first render, asking the server nothing', async () => {
    sessionStorage.setItem(SESSION_TOKEN_KEY, 't1');
    const fetchMock = vi.fn(async () => json({ data: 'from the server' }));
    vi.stubGlobal('fetch', fetchMock);
    prefetch('/api/shops', Promise.resolve(json(shop)));
    prefetch('/api/lp/programs/spending', Promise.resolve(json({ data: programs })));
    prefetch('/api/kinds', Promise.resolve(json({ data: kinds })));
    await primeLandingScreen({ pathname: '/embed/programs', search: '?type=redeem' });
    expect(fetchMock).not.toHaveBeenCalled();
    expect(getDefaultStore().get(shopAtom)).toEqual(shop);
    expect(takePrimed('programs:spending')).toEqual({ value: programs });
    expect(takePrimed('kinds:en')).toEqual({ value: kinds });
    // Taken once: a later load of the key asks the server.
    expect(takePrimed('programs:spending')).toBeUndefined();
  });

  it('primes nothing and waits for nothing on another screen, or for calls the preload script did not start', async () => {
    sessionStorage.setItem(SESSION_TOKEN_KEY, 't1');
    const fetchMock = vi.fn(async () => json({ data: [] }));
    vi.stubGlobal('fetch', fetchMock);
    prefetch('/api/shops', Promise.resolve(json(shop)));
    await primeLandingScreen({ pathname: '/customers', search: '' });
    expect(getDefaultStore().get(shopAtom)).toBeNull();
    // Embedded, the script starts nothing (App Bridge mints the token later): no call, no wait.
    delete window.__loyaltyPrefetch;
    await primeLandingScreen({ pathname: '/programs', search: '' });
    expect(fetchMock).not.toHaveBeenCalled();
    expect(takePrimed('programs:earning')).toBeUndefined();
  });

  it('draws without an answer that is not back within the wait, and without one that failed', async () => {
    vi.useFakeTimers();
    try {
      sessionStorage.setItem(SESSION_TOKEN_KEY, 't1');
      vi.stubGlobal('fetch', vi.fn(async () => json({ data: [] })));
      prefetch('/api/shops', new Promise<Response>(() => undefined));
      prefetch('/api/lp/programs/earning', Promise.resolve(new Response('{"error":"boom"}', { status: 500, headers: { 'Content-Type': 'application/json' } })));
      const primed = primeLandingScreen({ pathname: '/programs', search: '' });
      await vi.advanceTimersByTimeAsync(400);
      await primed;
      expect(getDefaultStore().get(shopAtom)).toBeNull();
      expect(takePrimed('programs:earning')).toBeUndefined();
    } finally {
      vi.useRealTimers();
    }
  });

  it("hands a shop answer later than the wait to the chrome, which waits for it instead of asking again", async () => {
    vi.useFakeTimers();
    try {
      sessionStorage.setItem(SESSION_TOKEN_KEY, 't1');
      const fetchMock = vi.fn(async () => json({ data: 'from the server' }));
      vi.stubGlobal('fetch', fetchMock);
      let answer!: (r: Response) => void;
      prefetch('/api/shops', new Promise<Response>((resolve) => (answer = resolve)));
      const primed = primeLandingScreen({ pathname: '/programs', search: '' });
      await vi.advanceTimersByTimeAsync(400);
      await primed;
      const late = takePendingShop();
      expect(late).not.toBeNull();
      expect(takePendingShop()).toBeNull();
      answer(json(shop));
      expect(await late).toEqual(shop);
      expect(getDefaultStore().get(shopAtom)).toEqual(shop);
      expect(fetchMock).not.toHaveBeenCalled();
    } finally {
      vi.useRealTimers();
    }
  });

  it('leaves no shop call to take once the answer is in', async () => {
    sessionStorage.setItem(SESSION_TOKEN_KEY, 't1');
    vi.stubGlobal('fetch', vi.fn(async () => json({ data: [] })));
    prefetch('/api/shops', Promise.resolve(json(shop)));
    await primeLandingScreen({ pathname: '/programs', search: '' });
    expect(getDefaultStore().get(shopAtom)).toEqual(shop);
    expect(takePendingShop()).toBeNull();
  });

  it('useResource starts with a primed answer instead of loading it, and loads again on reload', async () => {
    await primeResource('programs:earning', async () => ['primed']);
    const load = vi.fn(async () => ['loaded']);
    const { result } = renderHook(() => useResource('programs:earning', load));
    expect(result.current).toMatchObject({ data: ['primed'], loading: false });
    await act(async () => undefined);
    expect(load).not.toHaveBeenCalled();
    act(() => result.current.reload());
    await waitFor(() => expect(result.current.data).toEqual(['loaded']));
    expect(load).toHaveBeenCalledTimes(1);
    // Without a primed answer, the first render is a load.
    const { result: fresh } = renderHook(() => useResource('programs:spending', load));
    expect(fresh.current).toMatchObject({ data: undefined, loading: true });
    await waitFor(() => expect(fresh.current.loading).toBe(false));
  });
});
