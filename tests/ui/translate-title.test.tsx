// @vitest-environment jsdom
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { renderForm } from './form-harness';

afterEach(cleanup);

const setup = (formData = {}) =>
  renderForm({
    properties: { title: { type: 'object', title: 'Widget title', additionalProperties: { type: 'string', maxLength: 255 } } },
    uiSchema: { title: { 'ui:field': 'translateTitle' } },
    formData: { title: formData },
  });

const tab = (code: string) => screen.getByRole('tab', { name: new RegExp(`^${code} \\(`) });

describe('translateTitle field', () => {
  it('offers a tab for each of the 32 storefront languages and opens on English', () => {
    setup();
    const tabs = within(screen.getByRole('tablist', { name: 'Languages' })).getAllByRole('tab');
    expect(tabs).toHaveLength(32);
    expect(tabs.map((element) => element.textContent)).toContain('zh-TW');
    expect(tab('en')).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('tabpanel')).toContainElement(screen.getByLabelText('English'));
  });

  it('keeps each language\'s text when switching tabs and marks the tabs that have text', async () => {
    const { latest } = setup({ en: 'Rewards' });
    await userEvent.click(tab('de'));
    const german = screen.getByLabelText('German');
    expect(german).toHaveValue('');
    await userEvent.type(german, 'Prämien');

    await userEvent.click(tab('fr'));
    await userEvent.type(screen.getByLabelText('French'), 'Récompenses');

    await userEvent.click(tab('de'));
    expect(screen.getByLabelText('German')).toHaveValue('Prämien');
    await userEvent.click(tab('en'));
    expect(screen.getByLabelText('English')).toHaveValue('Rewards');

    expect(latest()).toEqual({ title: { en: 'Rewards', de: 'Prämien', fr: 'Récompenses' } });
    expect(tab('de')).toHaveAccessibleName('de (German), has text');
    expect(tab('it')).toHaveAccessibleName('it (Italian)');
  });

  it('moves between tabs with the arrow keys and drops a language whose text is emptied', async () => {
    const { latest } = setup({ en: 'Rewards', es: 'Premios' });
    tab('en').focus();
    await userEvent.keyboard('{ArrowRight}');
    expect(tab('es')).toHaveFocus();
    expect(tab('es')).toHaveAttribute('aria-selected', 'true');
    await userEvent.clear(screen.getByLabelText('Spanish'));
    expect(latest()).toEqual({ title: { en: 'Rewards' } });
  });

  it('writes right-to-left languages right to left', async () => {
    setup();
    await userEvent.click(tab('ar'));
    expect(screen.getByLabelText('Arabic')).toHaveAttribute('dir', 'rtl');
  });
});
