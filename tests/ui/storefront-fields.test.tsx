// @vitest-environment jsdom
/**
 * The widget design's custom fields (issue 13; spec 001 §2) in the real SchemaForm with the real
 * widget_design kind: content blocks reordered by keyboard drag and drop (@dnd-kit), shown or
 * hidden and their item counts; color presets; advanced CSS with the plan badge when gated.
 */
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createStore, Provider } from 'jotai';
import { join } from 'node:path';
import { useState } from 'react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { COLOR_PRESETS, DEFAULT_WIDGET_DESIGN } from '../../engine/widget-design';
import { loadRegistry } from '../../engine/registry';
import type { JsonObject } from '../../engine/types';
import { SchemaForm } from '../../ui/form/SchemaForm';
import { json } from './form-harness';

const kind = loadRegistry(join(import.meta.dirname, '..', '..', 'schemas')).localized('storefront.widget_design', 'en')!;
const ROW_HEIGHT = 60;

/** jsdom lays nothing out: each block row gets a row of its own so the keyboard sensor finds its neighbours. */
function layOutRows() {
  vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockImplementation(function (this: HTMLElement) {
    const row = this.closest('.content-blocks__row');
    const index = row?.parentElement ? Array.from(row.parentElement.children).indexOf(row) : 0;
    const top = index * ROW_HEIGHT;
    return { x: 0, y: top, top, left: 0, right: 400, bottom: top + ROW_HEIGHT - 8, width: 400, height: ROW_HEIGHT - 8, toJSON: () => ({}) } as DOMRect;
  });
}

function gates(allowed: boolean) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => json({ data: [{ feature: 'advanced_css', allowed, unlockPlan: allowed ? null : 'Essential', reason: allowed ? 'Included in your plan.' : 'Advanced CSS settings are available on the Essential plan and above; this shop is on Starter.' }] })),
  );
}

function renderDesign(formData: JsonObject = structuredClone(DEFAULT_WIDGET_DESIGN) as unknown as JsonObject) {
  const onChange = vi.fn<(data: JsonObject) => void>();
  function Harness() {
    const [data, setData] = useState(formData);
    return (
      <SchemaForm
        schema={kind.schema}
        uiSchema={kind.uiSchema}
        formData={data}
        onChange={(next) => {
          setData(next);
          onChange(next);
        }}
      />
    );
  }
  render(
    <Provider store={createStore()}>
      <MemoryRouter>
        <Harness />
      </MemoryRouter>
    </Provider>,
  );
  return { latest: () => onChange.mock.lastCall?.[0] };
}

const blockIds = (data: JsonObject | undefined) => (data?.blocks as { id: string }[] | undefined)?.map((b) => b.id);

beforeEach(() => {
  layOutRows();
  gates(true);
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('contentBlocks field', () => {
  it('lists every block by name with a labelled drag handle, its switch and its item count', () => {
    renderDesign();
    const handles = screen.getAllByRole('button', { name: /^Move .*, position \d of 7$/ });
    expect(handles.map((h) => h.getAttribute('aria-label'))).toEqual([
      'Move Welcome, position 1 of 7',
      'Move Ways to earn, position 2 of 7',
      'Move Ways to redeem, position 3 of 7',
      'Move My coupons, position 4 of 7',
      'Move Point history, position 5 of 7',
      'Move VIP tier, position 6 of 7',
      'Move Refer a friend, position 7 of 7',
    ]);
    expect(screen.getByRole('switch', { name: 'Shown: Ways to earn' })).toBeChecked();
    expect(screen.getByRole('spinbutton', { name: 'Items shown: Point history' })).toHaveValue(5);
  });

  it('moves a block down with the keyboard: Space picks it up, ArrowDown moves it, Space drops it', async () => {
    const { latest } = renderDesign();
    screen.getByRole('button', { name: 'Move Welcome, position 1 of 7' }).focus();
    await userEvent.keyboard(' ');
    await userEvent.keyboard('{ArrowDown}');
    await userEvent.keyboard(' ');
    await waitFor(() => expect(blockIds(latest())).toEqual(['earn', 'welcome', 'redeem', 'coupons', 'history', 'tiers', 'referral']));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Move Welcome, position 2 of 7' })).toHaveFocus());
  });

  it('leaves the order alone when the move is cancelled with Escape', async () => {
    const { latest } = renderDesign();
    screen.getByRole('button', { name: 'Move Ways to redeem, position 3 of 7' }).focus();
    await userEvent.keyboard(' ');
    await userEvent.keyboard('{ArrowUp}');
    await userEvent.keyboard('{Escape}');
    expect(blockIds(latest())).toBeUndefined();
  });

  it('hides a block and changes how many items it lists, within the schema bounds', async () => {
    const { latest } = renderDesign();
    await userEvent.click(screen.getByRole('switch', { name: 'Shown: My coupons' }));
    expect((latest()?.blocks as { id: string; visible: boolean }[]).find((b) => b.id === 'coupons')!.visible).toBe(false);
    const items = screen.getByRole('spinbutton', { name: 'Items shown: Ways to earn' });
    await userEvent.clear(items);
    await userEvent.type(items, '3');
    expect((latest()?.blocks as { id: string; items: number }[]).find((b) => b.id === 'earn')!.items).toBe(3);
  });
});

describe('colorPresets field', () => {
  it('sets all five colors from a preset and marks it pressed', async () => {
    const { latest } = renderDesign();
    expect(screen.getByRole('button', { name: 'Indigo' })).toHaveAttribute('aria-pressed', 'true');
    await userEvent.click(screen.getByRole('button', { name: 'Forest' }));
    expect(latest()?.colors).toEqual(COLOR_PRESETS.forest);
    expect(screen.getByRole('button', { name: 'Forest' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByLabelText('Banner color')).toBeInTheDocument();
  });
});

describe('advancedCss field', () => {
  it('shows no badge when the plan includes advanced CSS', async () => {
    renderDesign();
    expect(await screen.findByLabelText('Advanced CSS')).toBeInTheDocument();
    expect(screen.queryByText('Available on Essential')).not.toBeInTheDocument();
  });

  it('shows the Essential badge linking to that plan, and keeps the CSS editable for the preview', async () => {
    gates(false);
    const { latest } = renderDesign();
    const badge = await screen.findByText('Available on Essential');
    expect(badge.closest('a')).toHaveAttribute('href', '/subscription?plan=pro_3_2025');
    expect(screen.getByText(/Saving advanced CSS needs the Essential plan/)).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Advanced CSS'), '.x {{}');
    expect(latest()?.advancedCss).toBe('.x {}');
  });
});
