import type { WidgetProps } from '@rjsf/utils';
import { ariaDescribedByIds } from '@rjsf/utils';
import { useEffect, useRef, useState } from 'react';
import { ApiError } from '../../api/client';
import { widgetApi } from '../../api/endpoints';
import { Button } from '../../components/Button';
import { useT } from '../../i18n';
import { acceptFor, DEFAULT_IMAGE_PURPOSE, formatBytes, imageFileProblem, imageRule } from './image-check';

/** The uploaded image's address as the schemas store it: absolute (`_shared/web-url.json`). */
function absolute(url: string): string {
  return new URL(url, window.location.origin).href;
}

/**
 * An uploaded image (`"ui:widget": "image"`, `ui:options.purpose` one of rules/image-rules.json's
 * purposes, default `reward_image`). The file is checked here first with the spec's messages, then
 * sent to `POST /api/uploads`; the value is the URL the server answers.
 */
export function ImageWidget({ id, value, options, disabled, readonly, onChange }: WidgetProps) {
  const t = useT();
  const purpose = typeof options.purpose === 'string' ? options.purpose : DEFAULT_IMAGE_PURPOSE;
  const rule = imageRule(purpose);
  const [uploading, setUploading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const pending = useRef<AbortController | null>(null);
  useEffect(() => () => pending.current?.abort(), []);

  const off = disabled || readonly || uploading;
  const errorId = `${id}__upload-error`;
  const hintId = `${id}__upload-hint`;
  const hint = t('form.image.hint', {
    types: rule.types.map((type) => `.${type}`).join(', '),
    size: formatBytes(rule.maxBytes),
  });

  async function upload(file: File) {
    setError(null);
    const problem = await imageFileProblem(file, purpose);
    if (problem) {
      setError(problem);
      return;
    }
    const controller = new AbortController();
    pending.current = controller;
    setUploading(true);
    try {
      const image = await widgetApi.uploadImage(file, purpose, controller.signal);
      onChange(absolute(image.url));
    } catch (cause) {
      if (controller.signal.aborted) return;
      setError(cause instanceof ApiError ? cause.message : t('common.genericError'));
    } finally {
      if (!controller.signal.aborted) setUploading(false);
    }
  }

  const image = typeof value === 'string' && value !== '' ? value : null;
  return (
    <div className="image-field">
      {image && <img className="image-field__preview" src={image} alt={t('form.image.preview')} />}
      <input
        ref={fileInput}
        id={id}
        type="file"
        className="visually-hidden"
        tabIndex={-1}
        accept={acceptFor(purpose)}
        disabled={off}
        aria-describedby={[error ? errorId : '', hintId, ariaDescribedByIds(id)].filter(Boolean).join(' ')}
        onChange={(event) => {
          const file = event.target.files?.[0];
          // Cleared so choosing the same file again still fires a change.
          event.target.value = '';
          if (file) void upload(file);
        }}
      />
      <div className="image-field__actions">
        <Button onClick={() => fileInput.current?.click()} disabled={off} loading={uploading}>
          {image ? t('form.image.replace') : t('form.image.upload')}
        </Button>
        {image && (
          <Button variant="critical-plain" onClick={() => onChange(options.emptyValue)} disabled={off}>
            {t('form.image.remove')}
          </Button>
        )}
      </div>
      {uploading && (
        <div className="image-field__status" role="status">
          <progress className="image-field__progress" aria-label={t('form.image.uploading')} />
          {t('form.image.uploading')}
        </div>
      )}
      <div id={hintId} className="form-field__help">{hint}</div>
      {error && (
        <div id={errorId} className="form-field__error" role="alert">
          <p>
            <span className="form-field__error-icon" aria-hidden="true">!</span>
            {error}
          </p>
        </div>
      )}
    </div>
  );
}
