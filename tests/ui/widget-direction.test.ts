// @vitest-environment jsdom
/**
 * The storefront widget reads in its language's direction (issue 13): with Arabic or Hebrew texts
 * the widget's root is `dir="rtl"` and carries the language; with others it stays left to right.
 * The widget is the real bundle's class fed the admin preview's sample data (server/widget-assets.ts).
 */
import { describe, expect, it } from 'vitest';
import { loadWidgetTexts } from '../../server/proxy/widget';
import { previewData } from '../../server/widget-assets';
import { PreviewApi, type PreviewData } from '../../ui/widget/api';
import { LoyaltyWidget } from '../../ui/widget/main';

const texts = loadWidgetTexts();

async function rootIn(language: string): Promise<HTMLElement> {
  const host = document.createElement('div');
  document.body.append(host);
  const widget = new LoyaltyWidget(host, new PreviewApi(previewData(texts, language) as unknown as PreviewData), true);
  await widget.load();
  const root = host.shadowRoot?.querySelector<HTMLElement>('.root');
  if (!root) throw new Error('the widget drew no root');
  return root;
}

describe('widget text direction', () => {
  for (const language of ['ar', 'he', 'ur']) {
    it(`renders ${language} right to left`, async () => {
      const root = await rootIn(language);
      expect(root.getAttribute('dir')).toBe('rtl');
      expect(root.getAttribute('lang')).toBe(language);
      expect(root.querySelector('.panel h2')?.textContent).toBe(texts[language]!['panel.title']);
    });
  }

  for (const language of ['en', 'fr', 'zh-TW']) {
    it(`renders ${language} left to right`, async () => {
      const root = await rootIn(language);
      expect(root.getAttribute('dir')).toBe('ltr');
      expect(root.getAttribute('lang')).toBe(language);
    });
  }
});
