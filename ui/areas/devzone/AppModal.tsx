import { useEffect, useId, useState, type ChangeEvent } from 'react';
import { ApiError } from '../../api/client';
import { widgetApi } from '../../api/endpoints';
import { Modal } from '../../components/Modal';
import { useT } from '../../i18n';
import type { RecommendedApp, RecommendedAppInput } from './api';

/** The modal's mode (spec 001 §4 Recommended app modal: closed, create, edit). */
export type AppModalMode = { mode: 'closed' } | { mode: 'create' } | { mode: 'edit'; app: RecommendedApp };

/** 'Create New App' opens an empty form: type appInstall, active. */
const EMPTY: RecommendedAppInput = { title: '', description: '', img: '', appStoreUrl: '', integrationUrl: '', type: 'appInstall', priority: null, isActive: true };

/** The edit form prefilled: priority 1 when missing, active unless it is false (spec 001 §4). */
const fromApp = (app: RecommendedApp): RecommendedAppInput => ({
  title: app.title,
  description: app.description,
  img: app.img,
  appStoreUrl: app.appStoreUrl,
  integrationUrl: app.integrationUrl ?? '',
  type: app.type,
  priority: Number.isFinite(app.priority) ? app.priority : 1,
  isActive: app.isActive !== false,
});

type Field = 'title' | 'description' | 'img' | 'appStoreUrl' | 'integrationUrl' | 'priority';

/**
 * The create/edit modal of the recommended apps manager (spec 001 §2, §4, §5): Title, Description,
 * Image URL (or an uploaded logo, through the uploads API) and App Store URL are required,
 * Integration URL is optional, an empty priority is assigned by the server. Cancel or close resets
 * the form. `onSubmit` throws the server's ApiError; its field issues are shown on the fields.
 */
export function AppModal({ state, onClose, onSubmit }: { state: AppModalMode; onClose: () => void; onSubmit: (input: RecommendedAppInput) => Promise<void> }) {
  const t = useT();
  const id = useId();
  const [form, setForm] = useState<RecommendedAppInput>(EMPTY);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [busy, setBusy] = useState(false);
  const [uploading, setUploading] = useState(false);
  useEffect(() => {
    setForm(state.mode === 'edit' ? fromApp(state.app) : EMPTY);
    setErrors({});
  }, [state]);

  const set = <K extends keyof RecommendedAppInput>(key: K, value: RecommendedAppInput[K]) => setForm((f) => ({ ...f, [key]: value }));
  const required = (['title', 'description', 'img', 'appStoreUrl'] as const).filter((key) => form[key].trim() === '');

  const submit = async () => {
    if (required.length > 0) {
      setErrors(Object.fromEntries(required.map((key) => [key, t('devzone.form.required')])));
      return;
    }
    setBusy(true);
    try {
      await onSubmit(form);
    } catch (error) {
      if (error instanceof ApiError && error.details.length > 0) setErrors(Object.fromEntries(error.details.map((d) => [d.path.slice(1), d.message])));
    } finally {
      setBusy(false);
    }
  };

  const upload = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    setUploading(true);
    try {
      const image = await widgetApi.uploadImage(file, 'icon');
      set('img', new URL(image.url, window.location.origin).toString());
      setErrors((e) => ({ ...e, img: undefined }));
    } catch (error) {
      setErrors((e) => ({ ...e, img: error instanceof ApiError ? error.message : t('devzone.form.uploadFailed') }));
    } finally {
      setUploading(false);
    }
  };

  const text = (key: Exclude<Field, 'priority'>, label: string, options: { multiline?: boolean; type?: string; hint?: string } = {}) => {
    const error = errors[key];
    const fieldId = `${id}-${key}`;
    const props = {
      id: fieldId,
      className: options.multiline ? 'input__field input__field--multiline' : 'input__field',
      value: form[key],
      'aria-invalid': error ? true : undefined,
      'aria-describedby': error ? `${fieldId}-error` : undefined,
      onChange: (e: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => set(key, e.target.value),
    };
    return (
      <div className="form-field">
        <label className="form-field__label" htmlFor={fieldId}>
          {label}
        </label>
        <div className={error ? 'input input--invalid' : 'input'}>{options.multiline ? <textarea rows={3} {...props} /> : <input type={options.type ?? 'text'} {...props} />}</div>
        {options.hint && <p className="form-field__help">{options.hint}</p>}
        {error && (
          <p className="form-field__error" id={`${fieldId}-error`}>
            {error}
          </p>
        )}
      </div>
    );
  };

  return (
    <Modal
      open={state.mode !== 'closed'}
      title={state.mode === 'edit' ? t('devzone.form.editTitle') : t('devzone.form.createTitle')}
      onClose={onClose}
      secondaryLabel={t('devzone.form.cancel')}
      primaryAction={{ label: state.mode === 'edit' ? t('devzone.form.update') : t('devzone.form.create'), loading: busy, onAction: () => void submit() }}
    >
      <div className="stack devzone-form">
        {text('title', t('devzone.form.title'))}
        {text('description', t('devzone.form.description'), { multiline: true })}
        {text('img', t('devzone.form.img'), { type: 'url', hint: t('devzone.form.imgHint') })}
        <div>
          <label className="btn btn--secondary devzone-form__upload">
            {uploading ? t('devzone.form.uploading') : t('devzone.form.upload')}
            <input type="file" accept=".gif,.jpg,.jpeg,.png,image/gif,image/jpeg,image/png" className="visually-hidden" onChange={(e) => void upload(e)} disabled={uploading} />
          </label>
          {form.img && <img className="devzone-form__preview" src={form.img} alt="" width={48} height={48} />}
        </div>
        {text('appStoreUrl', t('devzone.form.appStoreUrl'), { type: 'url' })}
        {text('integrationUrl', t('devzone.form.integrationUrl'), { hint: t('devzone.form.integrationUrlHint') })}
        <div className="form-field">
          <label className="form-field__label" htmlFor={`${id}-type`}>
            {t('devzone.form.type')}
          </label>
          <div className="select">
            <select id={`${id}-type`} className="select__field" value={form.type} onChange={(e) => set('type', e.target.value === 'appIntegration' ? 'appIntegration' : 'appInstall')}>
              <option value="appInstall">{t('devzone.type.appInstall')}</option>
              <option value="appIntegration">{t('devzone.type.appIntegration')}</option>
            </select>
          </div>
        </div>
        <div className="form-field">
          <label className="form-field__label" htmlFor={`${id}-priority`}>
            {t('devzone.form.priority')}
          </label>
          <div className={errors.priority ? 'input input--invalid' : 'input'}>
            <input
              id={`${id}-priority`}
              className="input__field"
              type="number"
              min={0}
              step={1}
              inputMode="numeric"
              value={form.priority ?? ''}
              onChange={(e) => set('priority', e.target.value === '' ? null : Number(e.target.value))}
            />
          </div>
          <p className="form-field__help">{t('devzone.form.priorityHint')}</p>
          {errors.priority && <p className="form-field__error">{errors.priority}</p>}
        </div>
        <label className="checkbox-row">
          <input type="checkbox" checked={form.isActive} onChange={(e) => set('isActive', e.target.checked)} />
          {t('devzone.form.isActive')}
        </label>
      </div>
    </Modal>
  );
}
