import { useEffect, useState, type FormEvent } from 'react';
import { ApiError } from '../api/client';
import { api, type PointExpiryRule } from '../api/endpoints';
import { useResource } from '../api/use-resource';
import { Banner } from '../components/Banner';
import { Button } from '../components/Button';
import { Card } from '../components/Card';
import { SkeletonText } from '../components/Skeleton';
import { Toggle } from '../components/Toggle';
import { useT, type MessageKey } from '../i18n';
import { useToast } from '../state/toasts';
import { Icon } from '../components/Icon';

const UNITS: PointExpiryRule['afterUnit'][] = ['day', 'week', 'month', 'year'];
const unitLabels: Record<PointExpiryRule['afterUnit'], MessageKey> = { day: 'settings.expiry.unit.day', week: 'settings.expiry.unit.week', month: 'settings.expiry.unit.month', year: 'settings.expiry.unit.year' };
/** Reminder offers (spec 002 §9: send-before 60/30/20/10 days, last e-mail 7/5/3 days). */
const REMINDER_DAYS = [60, 30, 20, 10, 7, 5, 3];
const MAX_REMINDERS = 5;

/**
 * Settings → Points: point expiry (spec 002 §1, §9). Points expire a period after they were earned,
 * oldest first, in a daily run at each store's midnight; the reminders chosen here are recorded as
 * due for the notification e-mails.
 */
export function PointExpiryCard() {
  const t = useT();
  const toast = useToast();
  const state = useResource<PointExpiryRule>('settings:point-expiry', () => api.pointExpiry());
  const [rule, setRule] = useState<PointExpiryRule | null>(null);
  const [value, setValue] = useState('12');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (!state.data) return;
    setRule(state.data);
    setValue(String(state.data.afterValue));
  }, [state.data]);
  const dirty = rule !== null && state.data !== undefined && (JSON.stringify({ ...rule, afterValue: value }) !== JSON.stringify({ ...state.data, afterValue: String(state.data.afterValue) }));
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!rule) return;
    const n = Number(value);
    if (!Number.isInteger(n) || n < 1 || n > 1000) {
      setErrors({ '/afterValue': t('settings.expiry.valueInvalid') });
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      state.setData(await api.savePointExpiry({ ...rule, afterValue: n }));
      toast(t('settings.pending.saved'));
    } catch (e) {
      if (e instanceof ApiError && e.details.length > 0) setErrors(Object.fromEntries(e.details.map((d) => [d.path, d.message])));
      else toast(t('settings.pending.failed'), 'error');
    } finally {
      setBusy(false);
    }
  };
  const toggleReminder = (days: number, on: boolean) => {
    if (!rule) return;
    const next = on ? [...rule.reminderDaysBefore, days] : rule.reminderDaysBefore.filter((d) => d !== days);
    setRule({ ...rule, reminderDaysBefore: [...new Set(next)].sort((a, b) => b - a) });
  };
  return (
    <Card title={t('settings.expiry.title')}>
      <p className="page-intro">{t('settings.expiry.help')}</p>
      {state.error !== undefined ? (
        <Banner tone="critical" title={t('settings.pending.loadFailed')} action={{ label: t('common.reload'), onAction: state.reload }} />
      ) : !rule ? (
        <SkeletonText lines={3} />
      ) : (
        <form className="stack" onSubmit={(e) => void submit(e)} noValidate>
          <label className="checkbox-row" htmlFor="expiry-enabled">
            <Toggle id="expiry-enabled" checked={rule.enabled} onChange={(enabled) => setRule({ ...rule, enabled })} />
            {t('settings.expiry.enabled')}
          </label>
          <div className="form-field">
            <span className="form-field__label" id="expiry-after-label">
              {t('settings.expiry.after')}
            </span>
            <div className="inline-form">
              <div className={errors['/afterValue'] ? 'input input--invalid' : 'input'}>
                <input className="input__field" type="number" inputMode="numeric" step={1} value={value} disabled={!rule.enabled} onChange={(e) => setValue(e.target.value)} aria-labelledby="expiry-after-label" aria-invalid={errors['/afterValue'] ? true : undefined} aria-describedby={errors['/afterValue'] ? 'expiry-after-error' : undefined} />
              </div>
              <span className="select">
                <select className="select__field" value={rule.afterUnit} disabled={!rule.enabled} onChange={(e) => setRule({ ...rule, afterUnit: e.target.value as PointExpiryRule['afterUnit'] })} aria-label={t('settings.expiry.unit')}>
                  {UNITS.map((u) => (
                    <option key={u} value={u}>
                      {t(unitLabels[u])}
                    </option>
                  ))}
                </select>
                <Icon name="chevron-down" className="select__chevron" />
              </span>
            </div>
            {errors['/afterValue'] && (
              <p className="form-field__error" id="expiry-after-error">
                {errors['/afterValue']}
              </p>
            )}
          </div>
          <fieldset className="form-field" disabled={!rule.enabled}>
            <legend className="form-field__label">{t('settings.expiry.reminders')}</legend>
            <div className="checkbox-grid">
              {REMINDER_DAYS.map((d) => (
                <label key={d} className="checkbox-row">
                  <input type="checkbox" checked={rule.reminderDaysBefore.includes(d)} disabled={!rule.reminderDaysBefore.includes(d) && rule.reminderDaysBefore.length >= MAX_REMINDERS} onChange={(e) => toggleReminder(d, e.target.checked)} />
                  {t('settings.expiry.daysBefore', { days: d })}
                </label>
              ))}
            </div>
            <p className="form-field__help">{t('settings.expiry.remindersHelp', { max: MAX_REMINDERS })}</p>
            {errors['/reminderDaysBefore'] && <p className="form-field__error">{errors['/reminderDaysBefore']}</p>}
          </fieldset>
          <div>
            <Button type="submit" variant="primary" disabled={!dirty} loading={busy}>
              {t('settings.pending.save')}
            </Button>
          </div>
        </form>
      )}
    </Card>
  );
}
