// @vitest-environment jsdom
/**
 * The landing screen's prefetched API answers (issue 12 LCP; vite.config.ts PREFETCH_SOURCE,
 * ui/api/prefetch.ts): the app's first GET of a prefetched path takes the answer the preload
 * script started instead of asking again; only once, only for the same token, only while fresh,
 * and a failed prefetch falls back to asking.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { request } from '../../ui/api/client';
import { PREFETCH_FRESH_MS } from '../../ui/api/prefetch';
import { SESSION_TOKEN_KEY } from '../../ui/api/session';

const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });

function prefetch(path: string, response: Promise<Response>, auth = 'Bearer t1', at = Date.now()) {
  window.__loyaltyPrefetch = { ...(window.__loyaltyPrefetch ?? {}), [path]: { auth, at, response } };
}

afterEach(() => {
  vi.unstubAllGlobals();
  delete window.__loyaltyPrefetch;
  sessionStorage.clear();
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
