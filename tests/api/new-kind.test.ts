import { cpSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadRegistry } from '../../engine/registry';
import { makeApp, ROOT } from '../support/app';

describe('a template added as JSON only', () => {
  it('appears in the kinds list and the API validates documents against it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'schemas-'));
    cpSync(join(ROOT, 'schemas'), dir, { recursive: true });
    mkdirSync(join(dir, 'earning', 'follow_threads'));
    writeFileSync(
      join(dir, 'earning', 'follow_threads', 'schema.json'),
      // The README recipe: a short template on a base (schemas/_bases/social.json).
      JSON.stringify({
        'x-extends': 'social',
        title: 'Follow on Threads',
        description: 'Customers earn points for following the shop on Threads.',
        'x-kind': 'earning.follow_threads',
        'x-name': 'follow_threads',
        'x-order': 95,
        properties: {
          title: { default: 'Follow on Threads' },
          socialUrl: { title: 'Threads profile link', description: 'Must be a link to threads.net.', pattern: '^[Hh][Tt][Tt][Pp][Ss]://(www\\.)?threads\\.net/\\S+$' },
        },
      }),
    );
    const { call } = await makeApp({ registry: loadRegistry(dir) });

    const kinds = (await (await call('GET', '/api/kinds')).json()) as { data: { id: string; category: string }[] };
    expect(kinds.data).toContainEqual(expect.objectContaining({ id: 'earning.follow_threads', category: 'social' }));

    const bad = await call('POST', '/api/kinds/earning.follow_threads/docs', { data: { earnPoint: 0 } });
    expect(bad.status).toBe(422);
    expect(((await bad.json()) as { error: { details: unknown[] } }).error.details).toEqual([{ path: '/earnPoint', message: 'Must be greater than 0' }]);

    const good = await call('POST', '/api/kinds/earning.follow_threads/docs', { data: {} });
    expect(good.status).toBe(201);
    const list = (await (await call('GET', '/api/lp/programs/earning')).json()) as { data: { event: string; title: string }[] };
    expect(list.data).toEqual([expect.objectContaining({ event: 'follow_threads', title: 'Follow on Threads' })]);
  });
});
