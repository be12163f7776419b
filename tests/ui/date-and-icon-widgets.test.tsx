// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { renderForm } from './form-harness';

afterEach(cleanup);

describe('storeDate widget', () => {
  it('names the store timezone beside a native date box', async () => {
    const { latest } = renderForm({
      properties: { startDate: { type: 'string', format: 'date', title: 'Start date' } },
      uiSchema: { startDate: { 'ui:widget': 'storeDate' } },
      timezone: 'America/New_York',
    });
    const input = screen.getByLabelText('Start date');
    expect(input).toHaveAttribute('type', 'date');
    expect(input).toHaveAccessibleDescription('Store time (America/New_York)');
    await userEvent.type(input, '2026-03-01');
    expect(latest()).toEqual({ startDate: '2026-03-01' });
  });

  it('is the default for every date field, so no template can show a date without its timezone', () => {
    renderForm({
      properties: { endDate: { type: 'string', format: 'date', title: 'End date' } },
      timezone: 'Asia/Kolkata',
    });
    const input = screen.getByLabelText('End date');
    expect(input).toHaveAttribute('type', 'date');
    expect(input).toHaveAccessibleDescription('Store time (Asia/Kolkata)');
  });
});

describe('icon widget', () => {
  const setup = () =>
    renderForm({
      properties: { icon: { type: 'string', title: 'Icon', maxLength: 2048 } },
      uiSchema: { icon: { 'ui:widget': 'icon' } },
    });

  it('stores a built-in icon by name', async () => {
    const { latest } = setup();
    await userEvent.click(screen.getByRole('radio', { name: 'Crown' }));
    expect(latest()).toEqual({ icon: 'crown' });
    expect(screen.getByRole('radiogroup', { name: 'Icon' })).toBeInTheDocument();
  });

  it('stores a pasted image URL instead of a built-in icon', async () => {
    const { latest } = setup();
    await userEvent.click(screen.getByRole('radio', { name: 'Star' }));
    await userEvent.type(screen.getByLabelText('Or paste an image URL'), 'https://cdn.example/vip.png');
    expect(latest()).toEqual({ icon: 'https://cdn.example/vip.png' });
    expect(screen.getByRole('radio', { name: 'Star' })).not.toBeChecked();
  });
});
