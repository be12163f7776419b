import type { ErrorSchema, FieldProps } from '@rjsf/utils';
import { getUiOptions } from '@rjsf/utils';
import { api } from '../../../api/endpoints';
import { useResource } from '../../../api/use-resource';
import { useT } from '../../../i18n';
import { isGated, PlanBadge } from '../../../pages/PlanGate';

/** The plan feature that unlocks advanced CSS (rules/plan-gates.json `gate.advanced_css`). */
export const ADVANCED_CSS_FEATURE = 'advanced_css';

/**
 * Advanced CSS (spec 001 §2, §6: paid plan, labelled Essential): `"ui:field": "advancedCss"` on the
 * design's `advancedCss`. A textarea like any other, with the plan badge beside its label when the
 * shop's plan lacks the feature (linking to the plan that unlocks it) and a note that saving needs
 * that plan; the merchant may still try CSS in the preview. The server refuses the save (403
 * `plan_gate` at `/advancedCss`), whatever the form shows.
 */
export function AdvancedCssField({ schema, uiSchema = {}, formData, errorSchema, fieldPathId, onChange, onBlur, onFocus, disabled, readonly, name }: FieldProps) {
  const t = useT();
  const gates = useResource('gates', () => api.gates(), { keepData: true });
  const gate = gates.data?.find((g) => g.feature === ADVANCED_CSS_FEATURE);
  const options = getUiOptions(uiSchema);
  const id = fieldPathId.$id;
  const label = (options.title as string | undefined) ?? schema.title ?? name;
  const description = (options.description as string | undefined) ?? schema.description;
  const errors = ((errorSchema as ErrorSchema | undefined)?.__errors ?? []) as string[];
  const helpId = `${id}__help`;
  const errorId = `${id}__error`;
  const gated = isGated(gate);
  return (
    <div className="form-field advanced-css">
      <div className="advanced-css__label">
        <label className="form-field__label" htmlFor={id}>
          {label}
        </label>
        <PlanBadge gate={gate} />
      </div>
      <div className={errors.length > 0 ? 'input input--invalid' : 'input'}>
        <textarea
          id={id}
          name={id}
          className="input__field input__field--multiline advanced-css__input"
          value={typeof formData === 'string' ? formData : ''}
          rows={6}
          spellCheck={false}
          disabled={disabled}
          readOnly={readonly}
          aria-invalid={errors.length > 0 || undefined}
          aria-describedby={[helpId, errors.length > 0 ? errorId : ''].filter(Boolean).join(' ')}
          onChange={(event) => onChange(event.target.value, fieldPathId.path)}
          onBlur={(event) => onBlur(id, event.target.value)}
          onFocus={(event) => onFocus(id, event.target.value)}
        />
      </div>
      <div id={helpId} className="form-field__help">
        {description}
        {gated && <p>{t('storefront.advancedCss.gated', { plan: gate.unlockPlan ?? t('common.plan') })}</p>}
      </div>
      {errors.length > 0 && (
        <div id={errorId} className="form-field__error">
          {errors.map((message) => (
            <p key={message}>{message}</p>
          ))}
        </div>
      )}
    </div>
  );
}
