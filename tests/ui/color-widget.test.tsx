// @vitest-environment jsdom
import { cleanup, fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { renderForm } from './form-harness';

afterEach(cleanup);

const setup = () =>
  renderForm({
    properties: { color: { type: 'string', title: 'Card color', pattern: '^#[0-9a-fA-F]{6}$', default: '#5c6ac4' } },
    uiSchema: { color: { 'ui:widget': 'color' } },
    formData: { color: '#5c6ac4' },
  });

describe('color widget', () => {
  it('copies a typed hex code to the picker and the form data', async () => {
    const { latest } = setup();
    const hex = screen.getByRole('textbox', { name: 'Card color hex code' });
    await userEvent.clear(hex);
    await userEvent.type(hex, '#FF8800');
    expect(screen.getByLabelText('Card color')).toHaveValue('#ff8800');
    expect(latest()).toEqual({ color: '#FF8800' });
  });

  it('copies a picked color to the hex box', () => {
    const { latest } = setup();
    fireEvent.change(screen.getByLabelText('Card color'), { target: { value: '#00aa11' } });
    expect(screen.getByRole('textbox', { name: 'Card color hex code' })).toHaveValue('#00aa11');
    expect(latest()).toEqual({ color: '#00aa11' });
  });

  it('refuses text that is not #rrggbb and keeps the last good color', async () => {
    const { latest } = setup();
    const hex = screen.getByRole('textbox', { name: 'Card color hex code' });
    // Typed over the selected text, so the box is never empty on the way.
    await userEvent.tripleClick(hex);
    await userEvent.keyboard('#12zz45');
    await userEvent.tab();
    expect(hex).toHaveValue('#12zz45');
    expect(hex).toHaveAccessibleDescription(expect.stringContaining('Enter a color as # and 6 hex digits'));
    expect(hex).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText('Card color')).toHaveValue('#5c6ac4');
    expect(latest()).toBeUndefined();
  });
});
