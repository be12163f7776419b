import type { RegistryFieldsType } from '@rjsf/utils';
import { ConditionBuilderField } from './fields/ConditionBuilderField';
import { SortableListField } from './fields/SortableListField';
import { TranslateTitleField } from './fields/TranslateTitleField';
import { AdvancedCssField } from '../areas/storefront/fields/AdvancedCssField';
import { ColorPresetsField } from '../areas/storefront/fields/ColorPresetsField';
import { ContentBlocksField } from '../areas/storefront/fields/ContentBlocksField';

/**
 * Our custom fields (`"ui:field"` in `ui.json`): whole arrays or objects drawn by one component.
 * Defined once at module level, like the widgets (see widgets.ts); RJSF merges them with its own.
 */
export const fields: RegistryFieldsType = {
  sortableList: SortableListField,
  translateTitle: TranslateTitleField,
  conditionBuilder: ConditionBuilderField,
  // The storefront widget design (issue 13): blocks by drag and drop, color presets, gated advanced CSS.
  contentBlocks: ContentBlocksField,
  colorPresets: ColorPresetsField,
  advancedCss: AdvancedCssField,
};

/** Field names a `ui.json` may use in `"ui:field"`. */
export const fieldNames: readonly string[] = Object.keys(fields);
