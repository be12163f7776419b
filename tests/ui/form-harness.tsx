import { render } from '@testing-library/react';
import { createStore, Provider } from 'jotai';
import { useState } from 'react';
import { vi } from 'vitest';
import type { JsonObject } from '../../engine/types';
import type { ShopResponse } from '../../ui/api/endpoints';
import { SchemaForm } from '../../ui/form/SchemaForm';
import { shopAtom } from '../../ui/state/session';

export interface FormSetup {
  /** The properties of a one-level object schema… */
  properties?: JsonObject;
  /** …or a whole schema (a real kind's). */
  schema?: JsonObject;
  uiSchema?: JsonObject;
  formData?: JsonObject;
  /** The store's timezone the session knows (`GET /api/shops`). */
  timezone?: string;
}

/**
 * Mounts the real SchemaForm (our widgets, fields and templates) on a small schema and records every
 * change: `latest()` is the form data a save would send.
 */
export function renderForm({ properties = {}, schema: wholeSchema, uiSchema = {}, formData = {}, timezone = 'UTC' }: FormSetup) {
  const onChange = vi.fn<(data: JsonObject) => void>();
  const schema: JsonObject = wholeSchema ?? { type: 'object', properties };
  function Harness() {
    const [data, setData] = useState(formData);
    return (
      <SchemaForm
        schema={schema}
        uiSchema={uiSchema}
        formData={data}
        onChange={(next) => {
          setData(next);
          onChange(next);
        }}
      />
    );
  }
  const store = createStore();
  store.set(shopAtom, {
    shop: { id: 's1', name: 'Demo Shop', domain: 'demo.myshopify.com', plan: 'free', currency: 'USD', ianaTimezone: timezone },
    shopInfo: { currency: 'USD', ianaTimezone: timezone, planName: 'basic', shopOwner: 'Dana' },
  } satisfies ShopResponse);
  const view = render(
    <Provider store={store}>
      <Harness />
    </Provider>,
  );
  const latest = (): JsonObject | undefined => onChange.mock.lastCall?.[0];
  return { ...view, onChange, latest };
}

/** A JSON answer of the fake server. */
export function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

/** The path and query of a fetch call's URL, e.g. `/api/catalog/products?query=snow`. */
export function urlOf(input: RequestInfo | URL): URL {
  return new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url, 'http://localhost');
}
