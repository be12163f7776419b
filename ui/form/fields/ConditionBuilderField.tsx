import type { ErrorSchema, FieldProps, UiSchema } from '@rjsf/utils';
import { getUiOptions, titleId, toFieldPathId } from '@rjsf/utils';
import { widgetApi } from '../../api/endpoints';
import { useResource } from '../../api/use-resource';
import { Button } from '../../components/Button';
import { useLabelLanguage, useT } from '../../i18n';
import { ConditionRow, type Condition } from './ConditionRow';

export type { Condition } from './ConditionRow';

const PARTS = ['field', 'typeMatch', 'content'] as const;

function asConditions(value: unknown): Condition[] {
  return Array.isArray(value) ? (value as Partial<Condition>[]).map((row) => ({ field: row?.field ?? '', typeMatch: row?.typeMatch ?? '', content: row?.content ?? '' })) : [];
}

/**
 * Earning conditions (`"ui:field": "conditionBuilder"` on an array of `{ field, typeMatch, content }`):
 * a row per condition whose field and operator come from `GET /api/rules/catalog`, so the choices are
 * the engine's own (STYLE.md, Medusa's lesson), and whose value box hides for operators that take none.
 * `items.content["ui:placeholder"]` in the uiSchema reaches the value boxes.
 */
export function ConditionBuilderField({ schema, uiSchema, formData, errorSchema, fieldPathId, registry, onChange, disabled, readonly, name }: FieldProps) {
  const t = useT();
  const language = useLabelLanguage();
  // Field and operator labels follow the admin's language; the rows keep their values meanwhile.
  const catalog = useResource(`rules-catalog:${language}`, () => widgetApi.ruleCatalog(language), { keepData: true });
  const data = catalog.data;
  const rows = asConditions(formData);
  const label = (getUiOptions(uiSchema).title as string | undefined) ?? schema.title ?? name;
  const placeholder = ((uiSchema?.items as UiSchema | undefined)?.content as UiSchema | undefined)?.['ui:placeholder'] as string | undefined;
  const first = { field: data?.fields[0]?.id, typeMatch: data?.operators[0]?.name };
  const canAdd = !disabled && !readonly && first.field !== undefined && first.typeMatch !== undefined && rows.length < (schema.maxItems ?? Infinity);
  const rowErrors = errorSchema as Record<number, Record<string, ErrorSchema>> | undefined;

  const commit = (next: Condition[]) => onChange(next, fieldPathId.path);
  const { globalFormOptions } = registry;
  const partsOf = <T,>(index: number, value: (part: (typeof PARTS)[number], id: string) => T) => {
    const rowPath = toFieldPathId(index, globalFormOptions, fieldPathId);
    return Object.fromEntries(PARTS.map((part) => [part, value(part, toFieldPathId(part, globalFormOptions, rowPath).$id)])) as Record<(typeof PARTS)[number], T>;
  };

  return (
    <fieldset className="form-array condition-builder" id={fieldPathId.$id}>
      {label && (
        <legend id={titleId(fieldPathId)} className="form-object__title">
          {label}
        </legend>
      )}
      {catalog.loading && !data && <p className="form-field__help" role="status">{t('form.conditions.loading')}</p>}
      {catalog.error !== undefined && !data && (
        <div className="condition-builder__failed">
          <p className="form-field__error">{t('form.loadFailed')}</p>
          <Button variant="plain" onClick={catalog.reload}>{t('common.reload')}</Button>
        </div>
      )}
      {data && rows.length === 0 && <p className="form-field__help">{t('form.conditions.none')}</p>}
      {rows.length > 0 && (
        <ol className="condition-builder__rows">
          {rows.map((row, index) => (
            <ConditionRow
              key={index}
              index={index}
              row={row}
              catalog={data}
              ids={partsOf(index, (_, id) => id)}
              errors={partsOf(index, (part) => (rowErrors?.[index]?.[part]?.__errors ?? []) as string[])}
              placeholder={placeholder}
              disabled={disabled}
              readonly={readonly}
              onChange={(patch) => commit(rows.map((other, i) => (i === index ? { ...other, ...patch } : other)))}
              onRemove={() => commit(rows.filter((_, i) => i !== index))}
            />
          ))}
        </ol>
      )}
      {canAdd && (
        <button type="button" className="btn btn--plain form-array__add" onClick={() => commit([...rows, { field: first.field!, typeMatch: first.typeMatch!, content: '' }])}>
          + {t('form.conditions.add')}
        </button>
      )}
    </fieldset>
  );
}
