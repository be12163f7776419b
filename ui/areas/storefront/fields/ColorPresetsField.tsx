import type { FieldProps, UiSchema } from '@rjsf/utils';
import { COLOR_PRESETS } from '../../../../engine/widget-design';
import { useT, type MessageKey } from '../../../i18n';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The preset whose five colors `colors` has (case aside), or null for a custom palette. */
export function presetOf(colors: unknown): string | null {
  if (!isObject(colors)) return null;
  for (const [name, preset] of Object.entries(COLOR_PRESETS)) {
    if (Object.entries(preset).every(([key, value]) => typeof colors[key] === 'string' && (colors[key] as string).toLowerCase() === value)) return name;
  }
  return null;
}

/**
 * Color presets and palette (spec 001 §2): `"ui:field": "colorPresets"` on the design's `colors`
 * object. A row of preset buttons (each sets all five colors at once; the current one is pressed),
 * then the object's own color fields, drawn by RJSF's ObjectField with the rest of the uiSchema.
 */
export function ColorPresetsField(props: FieldProps) {
  const t = useT();
  const { formData, onChange, fieldPathId, registry, uiSchema = {}, disabled, readonly } = props;
  const ObjectField = registry.fields.ObjectField!;
  const { 'ui:field': _field, ...rest } = uiSchema as UiSchema & { 'ui:field'?: unknown };
  const current = presetOf(formData);
  const off = Boolean(disabled || readonly);
  return (
    <div className="color-presets">
      <div role="group" aria-label={t('storefront.presets.label')} className="color-presets__row">
        <span className="color-presets__title" aria-hidden="true">
          {t('storefront.presets.label')}
        </span>
        {Object.entries(COLOR_PRESETS).map(([name, colors]) => (
          <button
            key={name}
            type="button"
            className="color-presets__preset"
            aria-pressed={current === name}
            disabled={off}
            onClick={() => onChange({ ...(isObject(formData) ? formData : {}), ...colors }, fieldPathId.path)}
          >
            <span className="color-presets__swatch" aria-hidden="true" style={{ background: `linear-gradient(135deg, ${colors.banner} 50%, ${colors.block} 50%)` }} />
            {t(`storefront.presets.${name}` as MessageKey)}
          </button>
        ))}
      </div>
      <ObjectField {...props} uiSchema={rest} />
    </div>
  );
}
