import type { WidgetProps } from '@rjsf/utils';
import { BaseInputTemplate } from './BaseInputTemplate';

/** Single-line text; numbers use it too (`getInputProps` picks `type="number"` from the schema). */
export function TextWidget(props: WidgetProps) {
  return <BaseInputTemplate {...props} />;
}

/** A number box with the browser's spinner buttons. */
export function NumberWidget(props: WidgetProps) {
  return <BaseInputTemplate {...props} type="number" />;
}
