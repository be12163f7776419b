import type { WidgetProps } from '@rjsf/utils';
import { t } from '../../i18n';
import { BaseInputTemplate } from './BaseInputTemplate';

/** A whole number of points: integer box with a "points" suffix (`"ui:widget": "points"`). */
export function PointsWidget(props: WidgetProps) {
  return (
    <BaseInputTemplate
      {...props}
      type="number"
      options={{ ...props.options, step: 1 }}
      suffix={t('form.points')}
    />
  );
}
