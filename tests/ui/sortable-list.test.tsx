// @vitest-environment jsdom
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderForm } from './form-harness';

const ROW_HEIGHT = 80;

/** jsdom lays nothing out; give each list item a row of its own so the keyboard sensor can find its neighbours. */
function layOutRows() {
  vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockImplementation(function (this: HTMLElement) {
    const row = this.closest('.sortable-list__item');
    const index = row?.parentElement ? Array.from(row.parentElement.children).indexOf(row) : 0;
    const top = index * ROW_HEIGHT;
    return { x: 0, y: top, top, left: 0, right: 400, bottom: top + ROW_HEIGHT - 8, width: 400, height: ROW_HEIGHT - 8, toJSON: () => ({}) } as DOMRect;
  });
}

beforeEach(layOutRows);
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const milestones = [
  { day: 3, earnPoint: 30 },
  { day: 7, earnPoint: 100 },
  { day: 14, earnPoint: 250 },
];

const setup = () =>
  renderForm({
    properties: {
      streakMilestones: {
        type: 'array',
        title: 'Streak rewards',
        minItems: 1,
        maxItems: 4,
        items: {
          type: 'object',
          required: ['day', 'earnPoint'],
          properties: { day: { type: 'integer', title: 'Consecutive days', default: 1 }, earnPoint: { type: 'integer', title: 'Bonus points', default: 10 } },
        },
      },
    },
    uiSchema: { streakMilestones: { 'ui:field': 'sortableList', items: { earnPoint: { 'ui:widget': 'points' } } } },
    formData: { streakMilestones: milestones },
  });

const days = () => screen.getAllByLabelText('Consecutive days').map((input) => (input as HTMLInputElement).valueAsNumber);

describe('sortableList field', () => {
  it('heads each item with the list\'s title and its position, or the items\' own title when they have one', () => {
    const { unmount } = setup();
    expect(screen.getAllByRole('group', { name: /^Streak rewards \d$/ })).toHaveLength(3);
    unmount();
    renderForm({
      properties: {
        list: { type: 'array', title: 'Streak rewards', items: { type: 'object', title: 'Streak reward', properties: { day: { type: 'integer', title: 'Consecutive days' } } } },
      },
      uiSchema: { list: { 'ui:field': 'sortableList' } },
      formData: { list: [{ day: 3 }, { day: 7 }] },
    });
    expect(screen.getByRole('group', { name: 'Streak reward 1' })).toBeInTheDocument();
    expect(screen.getByRole('group', { name: 'Streak reward 2' })).toBeInTheDocument();
  });

  it('renders every item through the form\'s own fields and widgets, each with a labelled drag handle', () => {
    setup();
    expect(screen.getByRole('group', { name: 'Streak rewards' })).toBeInTheDocument();
    expect(days()).toEqual([3, 7, 14]);
    expect(screen.getAllByLabelText('Bonus points')[0]!.closest('.input')).toHaveTextContent('points');
    expect(screen.getAllByRole('button', { name: /^Reorder \d$/ }).map((handle) => handle.getAttribute('aria-label'))).toEqual(['Reorder 1', 'Reorder 2', 'Reorder 3']);
  });

  it('moves an item down with the keyboard: Space picks it up, ArrowDown moves it, Space drops it', async () => {
    const { latest } = setup();
    screen.getByRole('button', { name: 'Reorder 1' }).focus();
    await userEvent.keyboard(' ');
    await userEvent.keyboard('{ArrowDown}');
    await userEvent.keyboard(' ');

    await waitFor(() => expect(latest()).toEqual({ streakMilestones: [milestones[1], milestones[0], milestones[2]] }));
    expect(days()).toEqual([7, 3, 14]);
    // Focus follows the item to its new place, so the merchant can keep moving it.
    await waitFor(() => expect(screen.getByRole('button', { name: 'Reorder 2' })).toHaveFocus());
  });

  it('leaves the order alone when the move is cancelled with Escape', async () => {
    const { latest } = setup();
    screen.getByRole('button', { name: 'Reorder 2' }).focus();
    await userEvent.keyboard(' ');
    await userEvent.keyboard('{ArrowDown}');
    await userEvent.keyboard('{Escape}');
    expect(latest()).toBeUndefined();
    expect(days()).toEqual([3, 7, 14]);
  });

  it('adds an item with the schema defaults and removes one', async () => {
    const { latest } = setup();
    await userEvent.click(screen.getByRole('button', { name: '+ Add item' }));
    expect(latest()).toEqual({ streakMilestones: [...milestones, { day: 1, earnPoint: 10 }] });
    // maxItems 4: no more adding.
    expect(screen.queryByRole('button', { name: '+ Add item' })).not.toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Remove 1' }));
    expect(latest()).toEqual({ streakMilestones: [milestones[1], milestones[2], { day: 1, earnPoint: 10 }] });
    expect(days()).toEqual([7, 14, 1]);
  });
});
