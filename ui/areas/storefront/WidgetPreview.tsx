import { useEffect, useRef, useState } from 'react';
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
 */
export function WidgetPreview({ design, sections }: { design: JsonObject | null; sections?: Record<string, JsonObject> }) {
  const t = useT();
  const frame = useRef<HTMLIFrameElement>(null);
  const [device, setDevice] = useState<'desktop' | 'phone'>('desktop');
  const [language, setLanguage] = useState('en');
  const [ready, setReady] = useState(false);

  // Every change of the form (and the frame's first load) sends the design as edited.
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
        <Select label={t('storefront.preview.language')} value={language} options={PREVIEW_LANGUAGES} onChange={(value) => { setReady(false); setLanguage(value); }} />
      </div>
      <div className={`widget-preview-stage widget-preview-${device}`}>
        <iframe
          ref={frame}
          key={language}
          title={t('storefront.preview.frame')}
          src={`/widget/preview?lang=${encodeURIComponent(language)}`}
          sandbox="allow-scripts allow-same-origin"
          onLoad={() => setReady(true)}
        />
      </div>
      <p className="muted">{t('storefront.preview.note')}</p>
    </Card>
  );
}
