/**
 * The widget's CSS, from its design (engine/widget-design.ts). Everything lives in the widget's
 * shadow root: the theme's CSS cannot reach in and this cannot reach out. Advanced CSS is
 * sanitized and appended last so it can restyle the widget (and only the widget).
 */
import { sanitizeWidgetCss, type WidgetDesign } from '../../engine/widget-design';

/** The stylesheet text for `design`. */
export function widgetCss(design: WidgetDesign): string {
  const r = design.corners === 'square' ? 0 : design.borderRadius;
  const c = design.colors;
  const side = design.launcher.alignment === 'left' ? 'left' : 'right';
  const filled = !design.minimalButtons;
  return `
:host { all: initial; }
* { box-sizing: border-box; }
.root { --r: ${r}px; --banner: ${c.banner}; --button: ${c.button}; --on-button: ${c.buttonText}; --block: ${c.block}; --text: ${c.text};
  font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--text); }
button { font: inherit; cursor: pointer; }
button:focus-visible, a:focus-visible, input:focus-visible { outline: 3px solid #005bd3; outline-offset: 2px; }
.launcher { position: fixed; bottom: 20px; ${side}: 20px; z-index: 2147483000; display: inline-flex; align-items: center; gap: 8px;
  min-height: 48px; padding: 0 18px; border: 0; border-radius: ${design.corners === 'square' ? 0 : 999}px; background: var(--button); color: var(--on-button);
  box-shadow: 0 4px 14px rgba(0,0,0,.22); font-weight: 600; }
.launcher svg { width: 22px; height: 22px; flex: none; }
.panel { position: fixed; bottom: 80px; ${side}: 20px; z-index: 2147483001; width: min(380px, calc(100vw - 24px)); max-height: min(640px, calc(100vh - 100px));
  display: flex; flex-direction: column; overflow: hidden; border-radius: var(--r); background: #fff; box-shadow: 0 12px 40px rgba(0,0,0,.28); }
@media (max-width: 480px) { .panel { ${side}: 12px; bottom: 72px; } }
.panel[hidden] { display: none; }
.head { display: flex; align-items: center; justify-content: space-between; padding: 14px 16px; background: var(--banner); color: var(--on-button); }
.head h2 { margin: 0; font-size: 17px; }
.close { border: 0; background: transparent; color: inherit; width: 36px; height: 36px; border-radius: 50%; font-size: 22px; line-height: 1; }
.body { overflow-y: auto; padding: 12px; display: grid; gap: 12px; }
.block { background: var(--block); border-radius: var(--r); padding: 12px 14px; }
.block h3 { margin: 0 0 8px; font-size: 15px; }
.balance { font-size: 24px; font-weight: 700; margin: 2px 0; }
.muted { color: #5c5f62; font-size: 13px; }
ul { list-style: none; margin: 0; padding: 0; display: grid; gap: 8px; }
li.item { display: flex; align-items: center; justify-content: space-between; gap: 10px; }
li.item > span { min-width: 0; overflow-wrap: anywhere; }
.btn { flex: none; display: inline-flex; align-items: center; justify-content: center; text-decoration: none; min-height: 34px; padding: 0 12px; border-radius: var(--r); border: 2px solid var(--button);
  background: ${filled ? 'var(--button)' : 'transparent'}; color: ${filled ? 'var(--on-button)' : 'var(--button)'}; font-weight: 600; }
.btn[disabled] { opacity: .5; cursor: not-allowed; }
.link { color: var(--button); font-weight: 600; }
.bar { height: 8px; border-radius: 4px; background: #e1e3e5; overflow: hidden; margin-top: 6px; }
.bar > span { display: block; height: 100%; background: var(--button); }
.code { font-family: ui-monospace, Menlo, monospace; font-weight: 700; }
.ref { display: flex; gap: 8px; }
.ref input { flex: 1; min-width: 0; padding: 6px 8px; border: 1px solid #8c9196; border-radius: var(--r); font: inherit; }
.notice { padding: 8px 10px; border-radius: var(--r); background: #fff4e4; }
.notice.ok { background: #e3f1df; }
.card { border-radius: var(--r); padding: 14px 16px; }
.card p { margin: 0 0 4px; }
.card-name { font-weight: 600; }
.points { display: inline-flex; align-items: center; gap: 6px; }
.point-icon { width: 1em; height: 1em; flex: none; }
.reminder { position: fixed; bottom: 76px; ${side}: 20px; z-index: 2147483000; max-width: min(280px, calc(100vw - 40px)); padding: 8px 12px;
  border-radius: var(--r); background: #fff; color: var(--text); box-shadow: 0 4px 14px rgba(0,0,0,.18); font-size: 13px; }
details.faq { border-top: 1px solid #e1e3e5; padding: 8px 0; }
details.faq:first-of-type { border-top: 0; }
details.faq summary { cursor: pointer; font-weight: 600; }
details.faq p { margin: 6px 0 0; overflow-wrap: anywhere; }
.share { display: flex; flex-wrap: wrap; gap: 12px; margin: 8px 0 0; }
.ref > span { align-self: center; }
.sr { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
${sanitizeWidgetCss(design.advancedCss)}
`;
}
