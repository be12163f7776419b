import type { ObjectFieldTemplateProps } from '@rjsf/utils';
import { descriptionId, titleId } from '@rjsf/utils';

/**
 * An object: the root renders each property straight into the form (the page supplies the card);
 * nested objects become a titled group.
 */
export function ObjectFieldTemplate({ title, description, properties, fieldPathId, uiSchema }: ObjectFieldTemplateProps) {
  const visible = properties.filter((property) => !property.hidden);
  const isRoot = fieldPathId.path.length === 0;
  const showTitle = !isRoot && title && uiSchema?.['ui:label'] !== false;
  return (
    <fieldset className={isRoot ? 'form-object form-object--root' : 'form-object'} id={fieldPathId.$id}>
      {showTitle && (
        <legend id={titleId(fieldPathId)} className="form-object__title">
          {title}
        </legend>
      )}
      {!isRoot && description && (
        <div id={descriptionId(fieldPathId)} className="form-field__help">
          {description}
        </div>
      )}
      {visible.map((property) => property.content)}
      {properties.filter((property) => property.hidden).map((property) => property.content)}
    </fieldset>
  );
}
