// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadRegistry } from '../../engine/registry';
import { SchemaForm } from '../../ui/form/SchemaForm';
import { issuesToErrorSchema } from '../../ui/form/error-schema';
import { renderForm } from './form-harness';
import { withStore } from './helpers';

afterEach(cleanup);

/** A limit that only matters while "Limit how often" is on, and tiers only for "Specific tiers". */
const properties = {
  hasLimit: { type: 'boolean', title: 'Limit how often a customer earns', default: false },
  limitInterval: { type: 'integer', title: 'Times', minimum: 1 },
  customerEligibility: {
    type: 'string',
    title: 'Who can earn',
    oneOf: [
      { const: 'all_members', title: 'All members' },
      { const: 'specific_tiers', title: 'Specific tiers' },
      { const: 'vip_members', title: 'Only VIP tier members' },
    ],
    default: 'all_members',
  },
  tierNote: { type: 'string', title: 'Tier note' },
};
const uiSchema = {
  limitInterval: { 'ui:options': { showWhen: { field: 'hasLimit', equals: true } } },
  tierNote: { 'ui:options': { showWhen: { field: 'customerEligibility', in: ['specific_tiers', 'vip_members'] } } },
};

describe('showWhen in ui.json', () => {
  it('hides a field while its switch is off and shows it, value intact, when it is turned on', async () => {
    const { latest } = renderForm({ properties, uiSchema, formData: { hasLimit: false, limitInterval: 3, customerEligibility: 'all_members' } });
    expect(screen.queryByLabelText('Times')).toBeNull();

    await userEvent.click(screen.getByRole('switch', { name: 'Limit how often a customer earns' }));
    expect(screen.getByLabelText('Times')).toHaveValue(3);

    await userEvent.click(screen.getByRole('switch', { name: 'Limit how often a customer earns' }));
    expect(screen.queryByLabelText('Times')).toBeNull();
    // Hidden, not dropped: turning the switch on again brings the same value back.
    expect(latest()).toMatchObject({ hasLimit: false, limitInterval: 3 });
  });

  it('shows a field for any of the values listed in `in`', async () => {
    renderForm({ properties, uiSchema, formData: { customerEligibility: 'all_members' } });
    expect(screen.queryByLabelText('Tier note')).toBeNull();
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Who can earn' }), 'Specific tiers');
    expect(screen.getByLabelText('Tier note')).toBeInTheDocument();
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Who can earn' }), 'Only VIP tier members');
    expect(screen.getByLabelText('Tier note')).toBeInTheDocument();
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Who can earn' }), 'All members');
    expect(screen.queryByLabelText('Tier note')).toBeNull();
  });

  it('keeps a switched-off field in sight while it has an error to fix', () => {
    render(
      withStore(
        <SchemaForm
          schema={{ type: 'object', properties }}
          uiSchema={uiSchema}
          formData={{ hasLimit: false, limitInterval: 0 }}
          extraErrors={issuesToErrorSchema([{ path: '/limitInterval', message: 'Enter 1 or more' }])}
          onChange={() => {}}
        />,
      ),
    );
    expect(screen.getByLabelText('Times')).toHaveAccessibleDescription(expect.stringContaining('Enter 1 or more'));
  });
});

describe('showWhen inside list items (the milestone template)', () => {
  const milestone = loadRegistry(join(import.meta.dirname, '../../schemas'), { only: 'earning.milestone' }).get('earning.milestone')!;

  it('shows each milestone only the field its reward needs', async () => {
    renderForm({ schema: milestone.schema, uiSchema: milestone.uiSchema, formData: { milestones: [{ value: 1, action: 'bonus_point', earnPoint: 100 }] } });
    expect(screen.getByLabelText('Bonus points')).toHaveValue(100);
    expect(screen.queryByLabelText('Discount value')).toBeNull();

    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Reward' }), 'Percentage discount');
    expect(screen.getByLabelText('Discount value')).toBeInTheDocument();
    expect(screen.queryByLabelText('Bonus points')).toBeNull();

    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Reward' }), 'Free shipping');
    expect(screen.queryByLabelText('Discount value')).toBeNull();
    expect(screen.queryByLabelText('Bonus points')).toBeNull();
  });
});

describe('showWhen on a group (the referral friend reward)', () => {
  const friendReward = loadRegistry(join(import.meta.dirname, '../../schemas'), { only: 'referral.friend_reward' }).get('referral.friend_reward')!;

  it('shows the coupon settings for discount rewards only', async () => {
    renderForm({ schema: friendReward.schema, uiSchema: friendReward.uiSchema, formData: { rewardType: 'percentage_discount', value: 10 } });
    expect(screen.getByRole('group', { name: 'Coupon' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('radio', { name: 'Points' }));
    expect(screen.queryByRole('group', { name: 'Coupon' })).toBeNull();
    await userEvent.click(screen.getByRole('radio', { name: 'Fixed amount discount' }));
    expect(screen.getByRole('group', { name: 'Coupon' })).toBeInTheDocument();
  });
});
