// @vitest-environment jsdom
/**
 * The custom program's connection test card (issue 11, spec 002 §4): a passed or skipped test
 * marks the edited program connected; a failed one shows the server's reason and changes nothing.
 */
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConnectionTestCard } from '../../ui/areas/events/ConnectionTestCard';
import { callsTo, mockFetch, withStore } from './helpers';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const program = { title: 'Attend a workshop', actionKey: 'attend_workshop', connectionStatus: 'not_connected', status: false };

describe('ConnectionTestCard', () => {
  it('marks the program connected when the test passes', async () => {
    const fetchMock = mockFetch({ 'POST /api/events/connection-test': { body: { data: { actionKey: 'attend_workshop', connectionStatus: 'connected', skipped: false, testedAt: '2026-11-25T15:00:00.000Z' } } } });
    const onChange = vi.fn();
    render(withStore(<ConnectionTestCard data={program} programId="p1" onChange={onChange} />));
    expect(screen.getByText('Not connected')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Test connection' }));
    expect(onChange).toHaveBeenCalledWith({ ...program, connectionStatus: 'connected' });
    expect(callsTo(fetchMock, 'POST', '/api/events/connection-test').map((c) => c.body)).toEqual([{ actionKey: 'attend_workshop', skip: false, programId: 'p1' }]);
  });

  it("shows the server's reason when no test trigger arrived, and connects when the test is skipped", async () => {
    mockFetch({
      'POST /api/events/connection-test': ({ body }) =>
        (body as { skip: boolean }).skip
          ? { body: { data: { actionKey: 'attend_workshop', connectionStatus: 'connected', skipped: true, testedAt: null } } }
          : { status: 409, body: { error: { code: 'connection_failed', message: 'No test trigger with this action key arrived in the last 15 minutes.' } } },
    });
    const onChange = vi.fn();
    render(withStore(<ConnectionTestCard data={program} onChange={onChange} />));
    await userEvent.click(screen.getByRole('button', { name: 'Test connection' }));
    expect(await screen.findByText('No test trigger with this action key arrived in the last 15 minutes.')).toBeInTheDocument();
    expect(onChange).not.toHaveBeenCalled();
    await userEvent.click(screen.getByRole('button', { name: 'Skip test' }));
    expect(onChange).toHaveBeenCalledWith({ ...program, connectionStatus: 'connected' });
  });

  it('cannot test without an action key', () => {
    mockFetch({});
    render(withStore(<ConnectionTestCard data={{ ...program, actionKey: '' }} onChange={vi.fn()} />));
    expect(screen.getByRole('button', { name: 'Test connection' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Skip test' })).toBeDisabled();
  });
});
