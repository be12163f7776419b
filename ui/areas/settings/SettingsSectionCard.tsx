import type Form from '@rjsf/core';
import type { ErrorSchema } from '@rjsf/utils';
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { JsonObject, KindDetail } from '../../../engine/types';
import { ApiError } from '../../api/client';
import { Button } from '../../components/Button';
import { Card } from '../../components/Card';
import { Modal } from '../../components/Modal';
import { issuesToErrorSchema } from '../../form/error-schema';
import { SchemaForm } from '../../form/SchemaForm';
import { useT } from '../../i18n';
import { sectionSchema, sectionUiSchema } from '../../pages/editor-sections';
import { useToast } from '../../state/toasts';
import { settingsApi, type SettingsSection } from './api';

export interface SettingsSectionCardProps {
  section: SettingsSection;
  title: string;
  help?: string;
  /** The `settings.shop` kind (schema and ui.json, labels in the admin's language). */
  kind: KindDetail;
  /** The section as saved (defaults filled in). */
  saved: JsonObject;
  onSaved: (section: SettingsSection, values: JsonObject) => void;
  /** Extra content under the form (the Developers keys). */
  children?: ReactNode;
}

/** True when the failure names the exchange rate (spec 002 §8 "Error saving exchange rate"). */
const namesExchangeRate = (error: unknown) => error instanceof ApiError && error.details.some((d) => d.path === '/order/exchangeRate');

/**
 * One section of Settings (spec 002 §2) as a schema-driven form: the `settings.shop` schema cut to
 * this section, saved on its own with `PUT /api/settings/:section`. Server issues land on their
 * fields; switching the pre-launch mode from sandbox to live asks first (spec 002 §4).
 */
export function SettingsSectionCard({ section, title, help, kind, saved, onSaved, children }: SettingsSectionCardProps) {
  const t = useT();
  const toast = useToast();
  const formRef = useRef<Form>(null);
  const [data, setData] = useState<JsonObject>({ [section]: saved });
  const [errors, setErrors] = useState<ErrorSchema>();
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState(false);
  useEffect(() => setData({ [section]: saved }), [section, saved]);
  const schema = useMemo(() => sectionSchema(kind.schema, [section]), [kind.schema, section]);
  const uiSchema = useMemo(() => sectionUiSchema(kind.uiSchema, [section], kind.schema), [kind.uiSchema, kind.schema, section]);
  const values = (data[section] ?? {}) as JsonObject;
  const dirty = JSON.stringify(values) !== JSON.stringify(saved);

  const save = async (confirm: boolean) => {
    if (formRef.current && !formRef.current.validateForm()) {
      // The fields show what is wrong; the toast says what failed (spec 002 §8).
      toast(section === 'order' && !(Number(values.exchangeRate) > 0) ? t('settings.exchangeRateFailed') : t('settings.saveFailed'), 'error');
      return;
    }
    if (section === 'prelaunch' && saved.mode === 'sandbox' && values.mode === 'live' && !confirm) {
      setConfirming(true);
      return;
    }
    setBusy(true);
    try {
      const answer = await settingsApi.save(section, values, confirm);
      setErrors(undefined);
      setConfirming(false);
      onSaved(section, answer);
      toast(t('settings.saved'));
    } catch (error) {
      if (error instanceof ApiError && error.code === 'confirmation_required') setConfirming(true);
      else {
        if (error instanceof ApiError && error.details.length > 0) setErrors(issuesToErrorSchema(error.details));
        const message = namesExchangeRate(error) ? t('settings.exchangeRateFailed') : section === 'prelaunch' ? t('settings.changeFailed') : t('settings.saveFailed');
        toast(message, 'error');
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <div id={`settings-${section}`} className="settings-section">
      <Card title={title}>
        {help && <p className="page-intro">{help}</p>}
        <SchemaForm
          id={`settings-form-${section}`}
          schema={schema}
          uiSchema={uiSchema}
          formData={data}
          onChange={setData}
          formRef={formRef}
          {...(errors ? { extraErrors: errors } : {})}
          disabled={busy}
        />
        <div className="settings-section__actions">
          {dirty && (
            <Button type="button" onClick={() => setData({ [section]: saved })} disabled={busy}>
              {t('settings.discard')}
            </Button>
          )}
          <Button type="button" variant="primary" disabled={!dirty} loading={busy && !confirming} onClick={() => void save(false)}>
            {t('settings.saveSection', { section: title })}
          </Button>
        </div>
        {children}
      </Card>
      {section === 'prelaunch' && (
        <Modal
          open={confirming}
          title={t('settings.live.confirmTitle')}
          onClose={() => setConfirming(false)}
          primaryAction={{ label: t('settings.live.confirm'), loading: busy, onAction: () => void save(true) }}
        >
          <p>{t('settings.live.confirmBody')}</p>
        </Modal>
      )}
    </div>
  );
}
