// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setUnauthorizedHandler } from '../../ui/api/client';
import { SESSION_TOKEN_KEY } from '../../ui/api/session';
import { json, renderForm, urlOf } from './form-harness';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  sessionStorage.clear();
  setUnauthorizedHandler(() => {});
});

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** A file whose bytes start like a PNG, `size` bytes long. */
function png(name: string, size: number): File {
  const bytes = new Uint8Array(size);
  bytes.set(PNG_SIGNATURE);
  return new File([bytes], name, { type: 'image/png' });
}

function setup() {
  const view = renderForm({
    properties: { image: { type: 'string', title: 'Image' } },
    uiSchema: { image: { 'ui:widget': 'image', 'ui:options': { purpose: 'reward_image' } } },
  });
  // The file chooser's own type filter is off: the widget must refuse what a merchant forces through.
  const user = userEvent.setup({ applyAccept: false });
  return { ...view, user, input: screen.getByLabelText('Image') };
}

describe('image widget', () => {
  it('refuses a text file with the spec message without calling the API', async () => {
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    const { user, input, latest } = setup();
    await user.upload(input, new File(['hello'], 'notes.txt', { type: 'text/plain' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Image format is not supported');
    expect(fetchMock).not.toHaveBeenCalled();
    expect(latest()).toBeUndefined();
  });

  it('refuses an image over the purpose\'s size limit without calling the API', async () => {
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    const { user, input } = setup();
    await user.upload(input, png('banner.png', 300 * 1024));
    expect(await screen.findByRole('alert')).toHaveTextContent('Image must be smaller than 200KB');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('uploads a small PNG for its purpose, shows progress, then stores and previews the returned URL', async () => {
    let answer: (response: Response) => void = () => {};
    const fetchMock = vi.fn((_input: RequestInfo | URL, _init?: RequestInit) => new Promise<Response>((resolve) => (answer = resolve)));
    vi.stubGlobal('fetch', fetchMock);
    const { user, input, latest } = setup();
    await user.upload(input, png('badge.png', 2048));

    expect(await screen.findByRole('status')).toHaveTextContent('Uploading image…');
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(urlOf(url).pathname).toBe('/api/uploads');
    expect(init?.method).toBe('POST');
    const body = init?.body as FormData;
    expect(body.get('purpose')).toBe('reward_image');
    expect((body.get('file') as File).name).toBe('badge.png');

    answer(json({ data: { id: 'u1', url: 'https://cdn.example/uploads/u1' } }, 201));
    expect(await screen.findByRole('img', { name: 'Current image' })).toHaveAttribute('src', 'https://cdn.example/uploads/u1');
    expect(latest()).toEqual({ image: 'https://cdn.example/uploads/u1' });
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });

  it('shows the server\'s message when the server refuses the file', async () => {
    const fetchMock = vi.fn(async () => json({ error: { code: 'image_type', message: 'Image format is not supported' } }, 422));
    vi.stubGlobal('fetch', fetchMock);
    const { user, input, latest } = setup();
    await user.upload(input, png('renamed.png', 1024));
    expect(await screen.findByRole('alert')).toHaveTextContent('Image format is not supported');
    expect(fetchMock).toHaveBeenCalledOnce();
    expect(latest()).toBeUndefined();
  });

  it('removes the image', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => json({ data: { id: 'u2', url: '/uploads/u2' } }, 201)));
    const { user, input, latest } = setup();
    await user.upload(input, png('logo.png', 512));
    // A path on our own origin is stored absolute, as the schemas' web URLs must be.
    expect(await screen.findByRole('img', { name: 'Current image' })).toHaveAttribute('src', `${window.location.origin}/uploads/u2`);
    await user.click(screen.getByRole('button', { name: 'Remove image' }));
    expect(screen.queryByRole('img')).not.toBeInTheDocument();
    expect(latest()).toEqual({});
  });

  it('signs out on a 401, as every other API call does', async () => {
    sessionStorage.setItem(SESSION_TOKEN_KEY, 'expired-token');
    const toSignIn = vi.fn();
    setUnauthorizedHandler(toSignIn);
    const fetchMock = vi.fn(async () => json({ error: { code: 'unauthorized', message: 'Session expired' } }, 401));
    vi.stubGlobal('fetch', fetchMock);
    const { user, input, latest } = setup();
    await user.upload(input, png('badge.png', 1024));
    expect(await screen.findByRole('alert')).toHaveTextContent('Session expired');
    const [, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(init.headers).toMatchObject({ Authorization: 'Bearer expired-token' });
    expect(toSignIn).toHaveBeenCalledOnce();
    expect(sessionStorage.getItem(SESSION_TOKEN_KEY)).toBeNull();
    expect(latest()).toBeUndefined();
  });
});
