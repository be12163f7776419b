import type { TemplatesType } from '@rjsf/utils';
import { ArrayFieldItemTemplate } from './templates/ArrayFieldItemTemplate';
import { ArrayFieldTemplate } from './templates/ArrayFieldTemplate';
import { DescriptionFieldTemplate } from './templates/DescriptionFieldTemplate';
import { FieldErrorTemplate } from './templates/FieldErrorTemplate';
import { FieldHelpTemplate } from './templates/FieldHelpTemplate';
import { FieldTemplate } from './templates/FieldTemplate';
import { ObjectFieldTemplate } from './templates/ObjectFieldTemplate';
import { TitleFieldTemplate } from './templates/TitleFieldTemplate';
import { BaseInputTemplate } from './widgets/BaseInputTemplate';

/** Renders nothing: the page's save bar submits, and errors show on their fields, not in a list. */
function Nothing() {
  return null;
}

/** Our RJSF theme's templates, defined once at module level (see widgets.ts for why). */
export const templates: Partial<Omit<TemplatesType, 'ButtonTemplates'>> & {
  ButtonTemplates: Partial<TemplatesType['ButtonTemplates']>;
} = {
  ArrayFieldItemTemplate,
  ArrayFieldTemplate,
  BaseInputTemplate,
  DescriptionFieldTemplate,
  ErrorListTemplate: Nothing,
  FieldErrorTemplate,
  FieldHelpTemplate,
  FieldTemplate,
  ObjectFieldTemplate,
  TitleFieldTemplate,
  ButtonTemplates: { SubmitButton: Nothing },
};
