import type { ApiErrorBody, FieldIssue } from '../../engine/types';
import { clearSessionToken, getSessionToken } from './session';
import { takePrefetched } from './prefetch';

/** A failed API call: HTTP status plus the server's `{ error: { code, message, details } }`. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details: FieldIssue[];

  constructor(status: number, code: string, message: string, details: FieldIssue[] = []) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.details = details;
  }
}

let onUnauthorized: () => void = () => {};

/**
 * Window event fired when a call answers 401 `reinstall_required`: the session is fine but the app
 * lost access to the shop (ui/areas/billing/AccessBanner.tsx shows the reinstall banner).
 */
export const REINSTALL_REQUIRED_EVENT = 'loyalty:reinstall-required';

/** Registers what happens after a 401 (the app navigates to /auth/login). */
export function setUnauthorizedHandler(handler: () => void): void {
  onUnauthorized = handler;
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  /** Skip the bearer token (sign-in calls). */
  anonymous?: boolean;
  signal?: AbortSignal;
}

function isErrorBody(value: unknown): value is ApiErrorBody {
  const error = (value as { error?: unknown } | null)?.error;
  return typeof error === 'object' && error !== null && typeof (error as { code?: unknown }).code === 'string';
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

/** One HTTP call as `request` and `upload` build it. */
interface Outgoing {
  method: NonNullable<RequestOptions['method']>;
  headers: Record<string, string>;
  body?: BodyInit;
  anonymous?: boolean;
  signal?: AbortSignal;
}

/**
 * Sends a call with the session token and turns the answer into the parsed body or an ApiError. A
 * 401 on a signed-in call drops the token and runs the unauthorized handler (sign-in redirect,
 * spec 000 §1), whatever the call sent: JSON or multipart.
 */
async function send<T>(path: string, call: Outgoing): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json', ...call.headers };
  if (!call.anonymous) {
    const token = await getSessionToken();
    if (token) headers.Authorization = `Bearer ${token}`;
  }
  let response: Response;
  // A landing screen's first GET may have been started before the app's code arrived (ui/api/prefetch.ts).
  const prefetched = call.method === 'GET' && call.body === undefined && !call.signal ? takePrefetched(path, headers.Authorization) : undefined;
  try {
    const ask = () => fetch(path, { method: call.method, headers, body: call.body, signal: call.signal });
    response = prefetched ? await prefetched.catch(ask) : await ask();
  } catch (cause) {
    if ((cause as Error).name === 'AbortError') throw cause;
    throw new ApiError(0, 'network_error', (cause as Error).message || 'Network error');
  }
  const body = await readJson(response);
  if (response.ok) return body as T;
  if (response.status === 401 && !call.anonymous) {
    if (isErrorBody(body) && body.error.code === 'reinstall_required') {
      window.dispatchEvent(new Event(REINSTALL_REQUIRED_EVENT));
    } else {
      clearSessionToken();
      onUnauthorized();
    }
  }
  if (isErrorBody(body)) {
    const { code, message, details } = body.error;
    throw new ApiError(response.status, code, message, details ?? []);
  }
  throw new ApiError(response.status, `http_${response.status}`, response.statusText || `HTTP ${response.status}`);
}

/**
 * Calls the API and returns the parsed JSON body.
 * @throws ApiError for any non-2xx answer (network failures become `network_error`, status 0).
 * @example const { data } = await request<{ data: KindSummary[] }>('/api/kinds');
 */
export async function request<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const json = options.body !== undefined;
  return send<T>(path, {
    method: options.method ?? 'GET',
    headers: json ? { 'Content-Type': 'application/json' } : {},
    body: json ? JSON.stringify(options.body) : undefined,
    anonymous: options.anonymous,
    signal: options.signal,
  });
}

/**
 * POSTs multipart form data (a file upload) and returns the parsed JSON body. Same token, errors and
 * 401 handling as `request`; the browser sets the multipart boundary itself.
 * @throws ApiError for any non-2xx answer (network failures become `network_error`, status 0).
 * @example const { data } = await upload<{ data: UploadedImage }>('/api/uploads', form);
 */
export async function upload<T>(path: string, form: FormData, options: Pick<RequestOptions, 'signal'> = {}): Promise<T> {
  return send<T>(path, { method: 'POST', headers: {}, body: form, signal: options.signal });
}
