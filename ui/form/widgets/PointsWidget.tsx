import type { WidgetProps } from '@rjsf/utils';
import { useT } from '../../i18n';
import { BaseInputTemplate } from './BaseInputTemplate';

/** A whole number of points: integer box with a "points" suffix (`"ui:widget": "points"`). */
export function PointsWidget(props: WidgetProps) {
  const t = useT();
  return (
    <BaseInputTemplate
      {...props}
      type="number"
      options={{ ...props.options, step: 1 }}
      suffix={t('form.points')}
    />
  );
}
