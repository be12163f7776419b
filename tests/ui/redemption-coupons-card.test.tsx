// @vitest-environment jsdom
/**
 * The customer profile's Coupons card (issue 11): the coupon history with statuses, the empty and
 * error states, and revoke after confirmation with the required admin note.
 */
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AdminCoupon } from '../../ui/api/endpoints';
import { CouponsCard } from '../../ui/areas/customers/CouponsCard';
import { callsTo, mockFetch, withStore } from './helpers';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const coupon = (over: Partial<AdminCoupon> = {}): AdminCoupon => ({
  id: 'k1',
  code: 'SAVE-ABCDEFGHJK',
  rewardId: 'r1',
  rewardKind: 'redeem.amount_discount',
  title: '$5 off',
  pointsSpent: 500,
  createdAt: '2026-11-24T12:00:00.000Z',
  expiresAt: null,
  status: 'available',
  revocable: true,
  platformId: 'local-discount-1',
  usedAt: null,
  revokedAt: null,
  revokedBy: null,
  note: null,
  ...over,
});

describe('CouponsCard', () => {
  it('lists the coupons with their code, points and status', async () => {
    mockFetch({ 'GET /api/customers/c1/coupons': { body: { data: [coupon(), coupon({ id: 'k2', code: 'OLD-1', status: 'revoked', revocable: false, revokedAt: '2026-11-24T13:00:00.000Z', revokedBy: 'admin:7', note: 'Duplicate' })] } } });
    render(withStore(<CouponsCard customerId="c1" />));
    expect(await screen.findByText('SAVE-ABCDEFGHJK')).toBeInTheDocument();
    expect(screen.getByText('Available')).toBeInTheDocument();
    expect(screen.getByText('Revoked')).toBeInTheDocument();
    expect(screen.getByText(/by admin:7: Duplicate/)).toBeInTheDocument();
    expect(screen.getAllByRole('button', { name: 'Revoke' })).toHaveLength(1);
  });

  it('says so when the customer has no coupons, and offers a reload when loading fails', async () => {
    mockFetch({ 'GET /api/customers/c1/coupons': { body: { data: [] } }, 'GET /api/customers/c2/coupons': { status: 500, body: { error: { code: 'internal_error', message: 'x' } } } });
    render(withStore(<CouponsCard customerId="c1" />));
    expect(await screen.findByText('This customer has not redeemed any rewards yet.')).toBeInTheDocument();
    cleanup();
    render(withStore(<CouponsCard customerId="c2" />));
    expect(await screen.findByText('Failed to load coupons')).toBeInTheDocument();
  });

  it('revokes after confirmation with the note, and refuses without one', async () => {
    const onRevoked = vi.fn();
    const fetchMock = mockFetch({
      'GET /api/customers/c1/coupons': { body: { data: [coupon()] } },
      'POST /api/coupons/k1/revoke': { body: { data: { coupon: coupon({ status: 'revoked', revocable: false }), points: 800 } } },
    });
    render(withStore(<CouponsCard customerId="c1" onRevoked={onRevoked} />));
    await userEvent.click(await screen.findByRole('button', { name: 'Revoke' }));
    const dialog = await screen.findByRole('dialog', { name: 'Revoke coupon SAVE-ABCDEFGHJK?' });
    expect(within(dialog).getByText(/500 points go back to the customer/)).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Revoke' }));
    expect(await within(dialog).findByText('This field is required')).toBeInTheDocument();
    expect(callsTo(fetchMock, 'POST', '/api/coupons/k1/revoke')).toHaveLength(0);
    await userEvent.type(within(dialog).getByLabelText('Admin note (required)'), 'Ordered by mistake');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Revoke' }));
    await waitFor(() => expect(onRevoked).toHaveBeenCalledWith(800));
    expect(callsTo(fetchMock, 'POST', '/api/coupons/k1/revoke')[0]?.body).toEqual({ note: 'Ordered by mistake' });
  });
});
