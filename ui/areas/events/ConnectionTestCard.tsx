/**
 * The custom program's connection test in its editor (spec 002 §4: "Flow-trigger and
 * custom-trigger programs can be turned on only after the connection test succeeds or is skipped
 * (then connected)"). The merchant's integration sends a test trigger with the action key; "Test
 * connection" asks the server whether it arrived (`POST /api/events/connection-test`), "Skip test"
 * connects without it. Either marks the form `connected`; the merchant then saves.
 */
import { useState } from 'react';
import type { JsonObject } from '../../../engine/types';
import { ApiError } from '../../api/client';
import { api } from '../../api/endpoints';
import { Badge } from '../../components/Badge';
import { Banner } from '../../components/Banner';
import { Button } from '../../components/Button';
import { Card } from '../../components/Card';
import { useT } from '../../i18n';

export interface ConnectionTestCardProps {
  /** The program as edited (unsaved). */
  data: JsonObject;
  /** The saved program's id, absent for a new one. */
  programId?: string;
  /** Sets the form's data (the editor marks it unsaved). */
  onChange: (next: JsonObject) => void;
}

export function ConnectionTestCard({ data, programId, onChange }: ConnectionTestCardProps) {
  const t = useT();
  const [busy, setBusy] = useState<'test' | 'skip' | null>(null);
  const [error, setError] = useState<string | null>(null);
  const actionKey = typeof data.actionKey === 'string' ? data.actionKey : '';
  const connected = data.connectionStatus === 'connected';

  async function run(skip: boolean) {
    setBusy(skip ? 'skip' : 'test');
    setError(null);
    try {
      await api.testConnection({ actionKey, skip, ...(programId ? { programId } : {}) });
      onChange({ ...data, connectionStatus: 'connected' });
    } catch (e) {
      setError(e instanceof ApiError || e instanceof Error ? e.message : t('events.connection.failed'));
    } finally {
      setBusy(null);
    }
  }

  return (
    <Card title={t('events.connection.title')} actions={<Badge tone={connected ? 'success' : 'neutral'}>{t(connected ? 'events.connection.connected' : 'events.connection.notConnected')}</Badge>}>
      <p>{t('events.connection.help', { actionKey: actionKey || '—' })}</p>
      {error && (
        <Banner tone="critical" onDismiss={() => setError(null)}>
          {error}
        </Banner>
      )}
      <div className="events-connection__actions">
        <Button variant="primary" onClick={() => void run(false)} loading={busy === 'test'} disabled={actionKey === '' || busy !== null}>
          {t('events.connection.test')}
        </Button>
        <Button variant="plain" onClick={() => void run(true)} loading={busy === 'skip'} disabled={actionKey === '' || busy !== null}>
          {t('events.connection.skip')}
        </Button>
      </div>
    </Card>
  );
}
