import type { RegistryWidgetsType } from '@rjsf/utils';
import { MoneyWidget } from './widgets/MoneyWidget';
import { PointsWidget } from './widgets/PointsWidget';
import { RadioWidget } from './widgets/RadioWidget';
import { SelectWidget } from './widgets/SelectWidget';
import { TextareaWidget } from './widgets/TextareaWidget';
import { DateWidget, NumberWidget, TextWidget } from './widgets/TextWidget';
import { ToggleWidget } from './widgets/ToggleWidget';

/**
 * Our widgets, defined once at module level: a map built inside render would give every widget a new
 * identity on each render and remount the whole form. The built-in names (`TextWidget`, …) replace
 * RJSF's defaults; the short names are what `ui.json` files write in `"ui:widget"`.
 */
export const widgets: RegistryWidgetsType = {
  TextWidget,
  UpDownWidget: NumberWidget,
  SelectWidget,
  RadioWidget,
  CheckboxWidget: ToggleWidget,
  DateWidget,
  TextareaWidget,
  toggle: ToggleWidget,
  points: PointsWidget,
  money: MoneyWidget,
};

/** Widget names a `ui.json` may use: RJSF's own short names plus ours. */
export const widgetNames: readonly string[] = [
  // RJSF resolves these short names to its registry keys (text → TextWidget, …).
  'text', 'updown', 'select', 'checkbox', 'date', 'textarea', 'hidden', 'radio', 'checkboxes',
  'email', 'uri', 'url', 'password', 'color', 'range', 'datetime', 'time',
  ...Object.keys(widgets),
];
