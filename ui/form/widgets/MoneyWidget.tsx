import type { WidgetProps } from '@rjsf/utils';
import { formContextOf } from '../form-context';
import { BaseInputTemplate } from './BaseInputTemplate';

export type { FormContext } from '../form-context';

/**
 * The symbol a currency is written with, e.g. `$` for USD, `€` for EUR, `CA$` for CAD.
 * @param currency ISO 4217 code; unknown codes come back unchanged.
 */
export function currencySymbol(currency: string): string {
  try {
    const parts = new Intl.NumberFormat('en', { style: 'currency', currency }).formatToParts(0);
    return parts.find((part) => part.type === 'currency')?.value ?? currency;
  } catch {
    return currency;
  }
}

/** An amount in major currency units with the shop's currency symbol in front (`"ui:widget": "money"`). */
export function MoneyWidget(props: WidgetProps) {
  const { currency } = formContextOf(props.registry);
  return (
    <BaseInputTemplate
      {...props}
      type="number"
      options={{ ...props.options, step: props.options.step ?? 0.01 }}
      prefix={currencySymbol(currency ?? 'USD')}
    />
  );
}
