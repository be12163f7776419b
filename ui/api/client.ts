import type { ApiErrorBody, FieldIssue } from '../../engine/types';
import { clearSessionToken, getSessionToken } from './session';

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

/** Registers what happens after a 401 (the app navigates to /auth/login). */
export function setUnauthorizedHandler(handler: () => void): void {
  onUnauthorized = handler;
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
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

/**
 * Calls the API and returns the parsed JSON body.
 * @throws ApiError for any non-2xx answer (network failures become `network_error`, status 0).
 * @example const { data } = await request<{ data: KindSummary[] }>('/api/kinds');
 */
export async function request<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  if (!options.anonymous) {
    const token = await getSessionToken();
    if (token) headers.Authorization = `Bearer ${token}`;
  }
  let response: Response;
  try {
    response = await fetch(path, {
      method: options.method ?? 'GET',
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: options.signal,
    });
  } catch (cause) {
    if ((cause as Error).name === 'AbortError') throw cause;
    throw new ApiError(0, 'network_error', (cause as Error).message || 'Network error');
  }
  const body = await readJson(response);
  if (response.ok) return body as T;
  if (response.status === 401 && !options.anonymous) {
    clearSessionToken();
    onUnauthorized();
  }
  if (isErrorBody(body)) {
    const { code, message, details } = body.error;
    throw new ApiError(response.status, code, message, details ?? []);
  }
  throw new ApiError(response.status, `http_${response.status}`, response.statusText || `HTTP ${response.status}`);
}
