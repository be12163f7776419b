// @vitest-environment jsdom
/**
 * The shell's floating booking popup and guide video modal in jsdom (coverage SH10; spec 000 §2
 * "a guide video modal (16:9), a floating booking popup (Book a call)", §4): the popup shows only
 * when the server says so, standalone and embedded; closing it (button or Escape) hides it and
 * saves the dismissal; "Book a call" records the request from the popup; the guide video opens in
 * a dialog with a 16:9 frame of the configured address and closes with Escape.
 */
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { GUIDE_VIDEO_URL, GuideVideoButton } from '../../ui/areas/dashboard/GuideVideo';
import { callsTo, mockFetch, renderApp, shopReply, withStore, type Reply } from './helpers';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  sessionStorage.clear();
  window.history.replaceState({}, '', '/');
});

const shopWithPopup = (show: boolean): Reply => ({
  body: { ...(shopReply.body as object), bookingPopup: { show, hiddenBecause: show ? [] : ['platform_plan_not_higher'] } },
});
const dismissed = { body: { data: { bannersDismiss: ['booking_popup'] } } };
/** The dashboard's sale banner asks for the offers: none here. */
const noOffers: Reply = { body: { data: { sale: null, headStart: null, milestoneTrial: null, onboardingCall: { allowed: false, unlockPlan: 'Advanced', requestedAt: null, note: null } } } };
/** The fake server: `table` over the calls every dashboard makes. */
const serve = (table: Record<string, Reply>) => mockFetch({ 'GET /api/subscription/offers': noOffers, ...table });
const popup = () => screen.findByRole('complementary', { name: 'Talk to our loyalty team' });

describe('floating booking popup', () => {
  it('shows when the server says so, with a Book a call button', async () => {
    serve({ 'GET /api/shops': shopWithPopup(true) });
    renderApp('/');
    expect(within(await popup()).getByRole('button', { name: 'Book a call' })).toBeInTheDocument();
  });

  it('does not show when the server says not to, nor for a shop answer without the field', async () => {
    serve({ 'GET /api/shops': shopWithPopup(false) });
    renderApp('/');
    await screen.findByText('Demo Shop');
    expect(screen.queryByRole('complementary', { name: 'Talk to our loyalty team' })).toBeNull();
    cleanup();
    serve({ 'GET /api/shops': shopReply });
    renderApp('/');
    await screen.findByText('Demo Shop');
    expect(screen.queryByRole('complementary', { name: 'Talk to our loyalty team' })).toBeNull();
  });

  it('shows in the embedded admin too', async () => {
    window.history.replaceState({}, '', '/embed/programs');
    serve({ 'GET /api/shops': shopWithPopup(true) });
    renderApp('/');
    expect(await popup()).toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Main' })).toBeNull();
  });

  it('hides for good with its close button: the dismissal is saved as a banner id', async () => {
    const fetchMock = serve({ 'GET /api/shops': shopWithPopup(true), 'POST /api/shop': dismissed });
    renderApp('/');
    await userEvent.click(within(await popup()).getByRole('button', { name: 'Close the call offer' }));
    expect(screen.queryByRole('complementary', { name: 'Talk to our loyalty team' })).toBeNull();
    await waitFor(() => expect(callsTo(fetchMock, 'POST', '/api/shop').map((c) => c.body)).toEqual([{ bannersDismiss: ['booking_popup'] }]));
    expect(document.activeElement).toBe(screen.getByRole('main'));
  });

  it('closes with Escape pressed inside it and saves the dismissal', async () => {
    const fetchMock = serve({ 'GET /api/shops': shopWithPopup(true), 'POST /api/shop': dismissed });
    renderApp('/');
    const book = within(await popup()).getByRole('button', { name: 'Book a call' });
    book.focus();
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('complementary', { name: 'Talk to our loyalty team' })).toBeNull();
    await waitFor(() => expect(callsTo(fetchMock, 'POST', '/api/shop')).toHaveLength(1));
  });

  it('books the call from the popup, thanks the merchant, and closing then saves nothing more', async () => {
    const fetchMock = serve({
      'GET /api/shops': shopWithPopup(true),
      'POST /api/subscription/onboarding-call': { body: { data: { allowed: false, unlockPlan: 'Advanced', requestedAt: '2026-03-10T12:00:00.000Z', note: null } } },
    });
    renderApp('/');
    const box = await popup();
    await userEvent.click(within(box).getByRole('button', { name: 'Book a call' }));
    expect(await within(box).findByText('Thanks! We will e-mail you to find a time for the call.')).toBeInTheDocument();
    expect(callsTo(fetchMock, 'POST', '/api/subscription/onboarding-call').map((c) => c.body)).toEqual([{ note: '', source: 'booking_popup' }]);
    expect(document.activeElement).toBe(within(box).getByRole('button', { name: 'Close the call offer' }));
    await userEvent.click(within(box).getByRole('button', { name: 'Close the call offer' }));
    expect(screen.queryByRole('complementary', { name: 'Talk to our loyalty team' })).toBeNull();
    expect(callsTo(fetchMock, 'POST', '/api/shop')).toHaveLength(0);
  });

  it("shows the server's message when the booking is refused, and keeps the offer", async () => {
    serve({
      'GET /api/shops': shopWithPopup(true),
      'POST /api/subscription/onboarding-call': { status: 409, body: { error: { code: 'offer_unavailable', message: 'This offer is not available for your shop' } } },
    });
    renderApp('/');
    const box = await popup();
    await userEvent.click(within(box).getByRole('button', { name: 'Book a call' }));
    expect(await within(box).findByRole('alert')).toHaveTextContent('This offer is not available for your shop');
    expect(within(box).getByRole('button', { name: 'Book a call' })).toBeInTheDocument();
  });
});

describe('guide video modal', () => {
  const URL_OF_VIDEO = 'https://www.youtube-nocookie.com/embed/abc123';
  const mountButton = () => render(withStore(<GuideVideoButton url={URL_OF_VIDEO} />));

  it('opens in a dialog with a 16:9 frame of the video, and closes with Escape', async () => {
    mountButton();
    await userEvent.click(screen.getByRole('button', { name: 'Watch the guide' }));
    const dialog = await screen.findByRole('dialog', { name: 'Getting started with your loyalty program' });
    const frame = within(dialog).getByTitle('Guide video: getting started with your loyalty program');
    expect(frame).toHaveAttribute('src', URL_OF_VIDEO);
    expect((frame.parentElement as HTMLElement).style.aspectRatio).toBe('16 / 9');
    fireEvent.keyDown(dialog, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByTitle('Guide video: getting started with your loyalty program')).toBeNull());
  });

  it('closes with its Close button, unloading the video', async () => {
    mountButton();
    await userEvent.click(screen.getByRole('button', { name: 'Watch the guide' }));
    const dialog = await screen.findByRole('dialog', { name: 'Getting started with your loyalty program' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(screen.queryByTitle('Guide video: getting started with your loyalty program')).toBeNull();
  });

  it("is offered on the dashboard's checklist exactly when guide-video.json names a video", async () => {
    serve({ 'GET /api/shops': shopReply });
    renderApp('/');
    await screen.findByText('Demo Shop');
    await screen.findByRole('heading', { name: /Quick start/i });
    expect(screen.queryByRole('button', { name: 'Watch the guide' }) !== null).toBe(GUIDE_VIDEO_URL !== null);
  });
});
