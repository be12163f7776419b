import { describe, expect, it } from 'vitest';
import { makeApp } from '../support/app';

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);

async function upload(t: Awaited<ReturnType<typeof makeApp>>, bytes: Uint8Array, name: string, purpose: string): Promise<Response> {
  const form = new FormData();
  form.set('file', new File([bytes.slice().buffer as ArrayBuffer], name));
  form.set('purpose', purpose);
  return t.app.request('/api/uploads', { method: 'POST', headers: { Authorization: `Bearer ${t.token}` }, body: form });
}

describe('image uploads', () => {
  it('stores a PNG review image and serves it back with safe headers', async () => {
    const t = await makeApp();
    const res = await upload(t, PNG, 'badge.png', 'review_image');
    expect(res.status).toBe(201);
    const { data } = (await res.json()) as { data: { url: string } };
    const file = await t.app.request(data.url);
    expect(file.headers.get('Content-Type')).toBe('image/png');
    expect(file.headers.get('X-Content-Type-Options')).toBe('nosniff');
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(PNG);
  });

  it('refuses a file that is not an image even when named .png, with the spec message', async () => {
    const t = await makeApp();
    const res = await upload(t, new TextEncoder().encode('MZ not an image'), 'evil.png', 'review_image');
    expect(res.status).toBe(422);
    expect(((await res.json()) as { error: { message: string } }).error.message).toBe('Image is not supported. File type must be .gif, .jpg, .png');
  });

  it('refuses a reward image over 200 KB', async () => {
    const t = await makeApp();
    const big = new Uint8Array(204_801);
    big.set(PNG);
    const res = await upload(t, big, 'big.png', 'reward_image');
    expect(((await res.json()) as { error: { code: string; message: string } }).error).toMatchObject({ code: 'image_size', message: 'Image must be smaller than 200KB' });
  });

  it('refuses an unknown purpose on its field', async () => {
    const t = await makeApp();
    const res = await upload(t, PNG, 'a.png', 'wallpaper');
    expect(((await res.json()) as { error: { details: unknown[] } }).error.details).toEqual([{ path: '/purpose', message: 'Value invalid' }]);
  });
});

describe('catalogues for the form widgets', () => {
  it('searches the demo products by title and returns exact string ids', async () => {
    const { call } = await makeApp();
    const body = (await (await call('GET', '/api/catalog/products?query=snowboard')).json()) as { data: { id: string; title: string }[] };
    expect(body.data.length).toBeGreaterThan(2);
    expect(body.data.every((p) => /snowboard/i.test(p.title) && typeof p.id === 'string')).toBe(true);
  });

  it('looks products up by id', async () => {
    const { call } = await makeApp();
    const body = (await (await call('GET', '/api/catalog/products?ids=7000000000000000001')).json()) as { data: { id: string }[] };
    expect(body.data.map((p) => p.id)).toEqual(['7000000000000000001']);
  });

  it('publishes the condition fields and the spec operators from the engine catalog', async () => {
    const { call } = await makeApp();
    const body = (await (await call('GET', '/api/rules/catalog')).json()) as { data: { fields: { id: string; label: string }[]; operators: { name: string; needsValue: boolean }[] } };
    expect(body.data.operators).toHaveLength(14);
    expect(body.data.operators.find((o) => o.name === 'empty')?.needsValue).toBe(false);
    expect(body.data.fields).toContainEqual(expect.objectContaining({ id: 'order.total_price', label: 'Order total' }));
  });
});
