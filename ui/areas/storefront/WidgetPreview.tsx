import { useEffect, useRef, useState } from 'react';
import { Button } from '../../components/Button';
import type { JsonObject } from '../../../engine/types';
import { STOREFRONT_LANGUAGES } from '../../../engine/storefront-languages';
import { Card } from '../../components/Card';
import { Select } from '../../components/Select';
import { useT } from '../../i18n';

/** Storefront languages with shipped widget texts the preview offers, each named in itself (engine/storefront-languages.ts). */
const PREVIEW_LANGUAGES = STOREFRONT_LANGUAGES.map(({ code, name }) => ({ value: code, label: name }));

/**
 * The live preview beside a design form (issue 13): the real widget bundle shoppers get, in a
 * sandboxed frame (`/widget/preview`, sample shop data), sent the unsaved design on every change
 * with `postMessage`; a desktop or phone frame; the preview language switches the widget's texts.
 * `sections` are the storefront and branding pages' data by kind name (`faqs`), so a page's preview
 * shows its own unsaved edits with the rest as saved.
 *
 * The frame says `loyalty-widget:ready` once the widget runs (ui/widget/main.ts); until then the
 * stage shows a loading line, and when the frame's page has loaded without it for
 * PREVIEW_READY_TIMEOUT_MS (the bundle failed to load or threw) an error with "Try again", which
 * loads the frame anew.
 */
/** How long after the frame's page has loaded the widget may take to say it is ready (ms). */
export const PREVIEW_READY_TIMEOUT_MS = 4000;

export function WidgetPreview({ design, sections }: { design: JsonObject | null; sections?: Record<string, JsonObject> }) {
  const t = useT();
  const frame = useRef<HTMLIFrameElement>(null);
  const [device, setDevice] = useState<'desktop' | 'phone'>('desktop');
  const [language, setLanguage] = useState('en');
  const [ready, setReady] = useState(false);
  const [failed, setFailed] = useState(false);
  // Bumped by "Try again": a new frame (its `key`).
  const [attempt, setAttempt] = useState(0);

  // The widget in the frame says when it runs; only this frame's window counts.
  useEffect(() => {
    const onMessage = (e: MessageEvent) => {
      if (e.origin !== window.location.origin || e.source !== frame.current?.contentWindow) return;
      if ((e.data as { type?: unknown } | null)?.type === 'loyalty-widget:ready') {
        setReady(true);
        setFailed(false);
      }
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, []);

  // The frame's page loaded: give the widget a moment, then call it failed.
  const [pageLoaded, setPageLoaded] = useState(false);
  useEffect(() => {
    if (!pageLoaded || ready) return;
    const timer = setTimeout(() => setFailed(true), PREVIEW_READY_TIMEOUT_MS);
    return () => clearTimeout(timer);
  }, [pageLoaded, ready]);

  const reload = (change?: () => void) => {
    setReady(false);
    setFailed(false);
    setPageLoaded(false);
    change?.();
  };

  // Every change of the form (and the widget's start) sends the design as edited.
  useEffect(() => {
    if (!ready) return;
    frame.current?.contentWindow?.postMessage({ type: 'loyalty-widget:design', design, sections: sections ?? {} }, window.location.origin);
  }, [design, sections, ready]);

  return (
    <Card title={t('storefront.preview.title')}>
      <div className="widget-preview-controls">
        <div role="group" aria-label={t('storefront.preview.device')} className="segmented">
          {(['desktop', 'phone'] as const).map((d) => (
            <button key={d} type="button" aria-pressed={device === d} className={device === d ? 'is-selected' : undefined} onClick={() => setDevice(d)}>
              {t(d === 'desktop' ? 'storefront.preview.desktop' : 'storefront.preview.phone')}
            </button>
          ))}
        </div>
        <Select label={t('storefront.preview.language')} value={language} options={PREVIEW_LANGUAGES} onChange={(value) => reload(() => setLanguage(value))} />
      </div>
      <div className={`widget-preview-stage widget-preview-${device}`} aria-busy={!ready && !failed}>
        <iframe
          ref={frame}
          key={`${language}:${attempt}`}
          title={t('storefront.preview.frame')}
          src={`/widget/preview?lang=${encodeURIComponent(language)}`}
          sandbox="allow-scripts allow-same-origin"
          onLoad={() => setPageLoaded(true)}
        />
        {!ready && (
          <div className="widget-preview-status" role={failed ? 'alert' : 'status'}>
            {failed ? (
              <>
                <p>{t('storefront.preview.failed')}</p>
                <Button onClick={() => reload(() => setAttempt((n) => n + 1))}>{t('storefront.preview.retry')}</Button>
              </>
            ) : (
              <p>{t('storefront.preview.loading')}</p>
            )}
          </div>
        )}
      </div>
      <p className="muted">{t('storefront.preview.note')}</p>
    </Card>
  );
}
