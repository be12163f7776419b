import type { WidgetProps } from '@rjsf/utils';
import { useT } from '../../i18n';
import { formContextOf } from '../form-context';
import { BaseInputTemplate } from './BaseInputTemplate';

/**
 * A calendar date in the store's timezone (`"ui:widget": "storeDate"`): programs start at 00:00 store
 * time, so the zone is named beside the box, e.g. "Store time (America/New_York)".
 */
export function StoreDateWidget(props: WidgetProps) {
  const t = useT();
  const { timezone } = formContextOf(props.registry);
  const zoneId = `${props.id}__zone`;
  return (
    <div className="store-date">
      <BaseInputTemplate {...props} type="date" describedBy={zoneId} />
      <span id={zoneId} className="store-date__zone">
        {timezone ? t('form.storeTime', { zone: timezone }) : t('form.storeTimeUnknown')}
      </span>
    </div>
  );
}
