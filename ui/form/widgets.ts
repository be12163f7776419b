import type { RegistryWidgetsType } from '@rjsf/utils';
import { CollectionPickerWidget, ProductPickerWidget } from './widgets/CatalogPicker';
import { ColorWidget } from './widgets/ColorWidget';
import { IconWidget } from './widgets/IconWidget';
import { ImageWidget } from './widgets/ImageWidget';
import { MoneyWidget } from './widgets/MoneyWidget';
import { PointsWidget } from './widgets/PointsWidget';
import { RadioWidget } from './widgets/RadioWidget';
import { SelectWidget } from './widgets/SelectWidget';
import { StoreDateWidget } from './widgets/StoreDateWidget';
import { TextareaWidget } from './widgets/TextareaWidget';
import { NumberWidget, TextWidget } from './widgets/TextWidget';
import { TierSelectWidget } from './widgets/TierSelectWidget';
import { ToggleWidget } from './widgets/ToggleWidget';

// scripts/schemas-check.ts reads both registries' names from this module.
export { fieldNames, fields } from './fields';

/**
 * Our widgets, defined once at module level: a map built inside render would give every widget a new
 * identity on each render and remount the whole form. The built-in names (`TextWidget`, …) replace
 * RJSF's defaults; the short names are what `ui.json` files write in `"ui:widget"`.
 *
 * `productPicker`, `collectionPicker` and `tierSelect` go on arrays of id strings: RJSF hands a
 * custom widget named on an array the whole array as its value (ArrayField's custom-widget branch),
 * so they need not be fields.
 */
export const widgets: RegistryWidgetsType = {
  TextWidget,
  UpDownWidget: NumberWidget,
  SelectWidget,
  RadioWidget,
  CheckboxWidget: ToggleWidget,
  // Every date in this product is a store-local calendar date (README "Dates"), so the default date
  // widget names the store's timezone; `storeDate` stays as an explicit name for ui.json files.
  DateWidget: StoreDateWidget,
  TextareaWidget,
  ColorWidget,
  toggle: ToggleWidget,
  points: PointsWidget,
  money: MoneyWidget,
  color: ColorWidget,
  icon: IconWidget,
  image: ImageWidget,
  productPicker: ProductPickerWidget,
  collectionPicker: CollectionPickerWidget,
  tierSelect: TierSelectWidget,
  storeDate: StoreDateWidget,
};

/** Widget names a `ui.json` may use: RJSF's own short names plus ours. */
export const widgetNames: readonly string[] = [
  // RJSF resolves these short names to its registry keys (text → TextWidget, …).
  'text', 'updown', 'select', 'checkbox', 'date', 'textarea', 'hidden', 'radio', 'checkboxes',
  'email', 'uri', 'url', 'password', 'range', 'datetime', 'time',
  ...Object.keys(widgets),
];
