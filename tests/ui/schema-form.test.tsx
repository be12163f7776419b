// @vitest-environment jsdom
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createStore, Provider } from 'jotai';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { JsonObject, KindDetail } from '../../engine/types';
import { issuesToErrorSchema } from '../../ui/form/error-schema';
import { withDefaults } from '../../ui/form/form-data';
import { SchemaForm } from '../../ui/form/SchemaForm';
import { shopAtom } from '../../ui/state/session';
import placeOrder from './fixtures/kind-place-order.json';
import { shopReply } from './helpers';
import type { ShopResponse } from '../../ui/api/endpoints';

const kind = placeOrder as unknown as KindDetail;

function Harness({ onChange }: { onChange?: (data: JsonObject) => void }) {
  const [data, setData] = useState(() => withDefaults(kind.schema));
  return (
    <SchemaForm
      schema={kind.schema}
      uiSchema={kind.uiSchema}
      formData={data}
      onChange={(next) => {
        setData(next);
        onChange?.(next);
      }}
    />
  );
}

function renderForm(onChange?: (data: JsonObject) => void) {
  const store = createStore();
  store.set(shopAtom, shopReply.body as ShopResponse);
  return render(
    <Provider store={store}>
      <Harness onChange={onChange} />
    </Provider>,
  );
}

afterEach(cleanup);

describe('SchemaForm', () => {
  it('renders a labelled control for every property, filled with the schema defaults', () => {
    renderForm();
    expect(screen.getByLabelText('Program name')).toHaveValue('Place an order');
    expect(screen.getByLabelText('Earn points')).toHaveValue(10);
    expect(screen.getByLabelText('For every')).toHaveValue(100);
    expect(screen.getByLabelText('Rounding')).toHaveDisplayValue('roundingDown');
    expect(screen.getByLabelText('Start date')).toHaveAttribute('type', 'date');
    expect(screen.getByRole('switch', { name: 'Active' })).toBeChecked();
    expect(screen.getByRole('group', { name: 'Conditions' })).toBeInTheDocument();
  });

  it('writes "points" after a points field and the shop currency symbol before a money field', () => {
    const { container } = renderForm();
    const points = screen.getByLabelText('Earn points').closest('.input');
    const money = screen.getByLabelText('For every').closest('.input');
    expect(points).toHaveTextContent('points');
    expect(money).toHaveTextContent('€');
    expect(container.querySelector('button[type="submit"]')).toBeNull();
  });

  it('reports edits as numbers for numeric fields', async () => {
    const onChange = vi.fn();
    renderForm(onChange);
    const input = screen.getByLabelText('Earn points');
    await userEvent.clear(input);
    await userEvent.type(input, '25');
    expect(onChange).toHaveBeenLastCalledWith(expect.objectContaining({ earnPoint: 25 }));
  });

  it('offers a few choices as a radio group named by the field label', async () => {
    const onChange = vi.fn();
    renderForm(onChange);
    const group = screen.getByRole('radiogroup', { name: 'Earn points by' });
    expect(within(group).getByRole('radio', { name: 'Order total' })).toBeChecked();
    await userEvent.click(within(group).getByRole('radio', { name: 'Quantity' }));
    expect(onChange).toHaveBeenLastCalledWith(expect.objectContaining({ earnBy: 'quantity' }));
  });

  it('flips a boolean with the keyboard through its switch', async () => {
    const onChange = vi.fn();
    renderForm(onChange);
    screen.getByRole('switch', { name: 'Active' }).focus();
    await userEvent.keyboard(' ');
    expect(onChange).toHaveBeenLastCalledWith(expect.objectContaining({ status: false }));
  });

  it('shows a server error under its own field and links it to the input', () => {
    const store = createStore();
    render(
      <Provider store={store}>
        <SchemaForm
          schema={kind.schema}
          uiSchema={kind.uiSchema}
          formData={withDefaults(kind.schema)}
          onChange={() => {}}
          extraErrors={issuesToErrorSchema([{ path: '/earnPoint', message: 'Must be at most 100000' }])}
        />
      </Provider>,
    );
    const input = screen.getByLabelText('Earn points');
    expect(input).toHaveAccessibleDescription(expect.stringContaining('Must be at most 100000'));
    expect(input).toHaveAttribute('aria-invalid', 'true');
  });
});
