import type { RuleCatalog } from '../../api/endpoints';
import { useT, type MessageKey } from '../../i18n';
import { Icon } from '../../components/Icon';

/** One earning condition as schemas/_shared/condition.json stores it. */
export interface Condition {
  field: string;
  typeMatch: string;
  content: string;
}

type Part = keyof Condition;

/** The field select's groups, in the spec's order of criteria kinds (spec 001 §3). */
const CRITERIA: readonly { id: RuleCatalog['fields'][number]['criteria']; label: MessageKey }[] = [
  { id: 'product', label: 'form.conditions.criteria.product' },
  { id: 'order', label: 'form.conditions.criteria.order' },
  { id: 'customer', label: 'form.conditions.criteria.customer' },
  { id: 'collection', label: 'form.conditions.criteria.collection' },
];

export interface ConditionRowProps {
  index: number;
  row: Condition;
  /** The rule catalog; undefined while it loads (the selects then show only the stored values). */
  catalog: RuleCatalog | undefined;
  /** DOM ids of the three controls, as RJSF would name them (`root_conditions_0_field`). */
  ids: Record<Part, string>;
  errors: Record<Part, string[]>;
  placeholder?: string;
  disabled?: boolean;
  readonly?: boolean;
  onChange: (patch: Partial<Condition>) => void;
  onRemove: () => void;
}

function Errors({ id, errors }: { id: string; errors: string[] }) {
  if (errors.length === 0) return null;
  return (
    <div id={id} className="form-field__error">
      {errors.map((message) => (
        <p key={message}>{message}</p>
      ))}
    </div>
  );
}

/** One condition: field (grouped by criteria), operator, and a value box unless the operator takes none. */
export function ConditionRow({ index, row, catalog, ids, errors, placeholder, disabled, readonly, onChange, onRemove }: ConditionRowProps) {
  const t = useT();
  const off = disabled || readonly || !catalog;
  const needsValue = (operator: string) => catalog?.operators.find((o) => o.name === operator)?.needsValue ?? true;
  const errorId = (part: Part) => (errors[part].length ? `${ids[part]}__error` : undefined);
  const boxClass = (part: Part, base: string) => (errors[part].length ? `${base} input--invalid` : base);
  return (
    <li className="condition-builder__row" role="group" aria-label={t('form.conditions.row', { n: index + 1 })}>
      <div className="condition-builder__control">
        <div className={boxClass('field', 'select')}>
          <select id={ids.field} className="select__field" aria-label={t('form.conditions.field')} value={row.field} disabled={off} aria-describedby={errorId('field')} onChange={(event) => onChange({ field: event.target.value })}>
            {/* A stored field the catalog no longer offers stays visible rather than silently changing. */}
            {!catalog?.fields.some((field) => field.id === row.field) && <option value={row.field}>{row.field}</option>}
            {CRITERIA.map((criteria) => {
              const fields = catalog?.fields.filter((field) => field.criteria === criteria.id) ?? [];
              return fields.length === 0 ? null : (
                <optgroup key={criteria.id} label={t(criteria.label)}>
                  {fields.map((field) => (
                    <option key={field.id} value={field.id}>{field.label}</option>
                  ))}
                </optgroup>
              );
            })}
          </select>
          <Icon name="chevron-down" className="select__chevron" />
        </div>
        <Errors id={`${ids.field}__error`} errors={errors.field} />
      </div>
      <div className="condition-builder__control">
        <div className={boxClass('typeMatch', 'select')}>
          <select
            id={ids.typeMatch}
            className="select__field"
            aria-label={t('form.conditions.operator')}
            value={row.typeMatch}
            disabled={off}
            aria-describedby={errorId('typeMatch')}
            // An operator that takes no value (is empty) must not keep a stale one.
            onChange={(event) => onChange(needsValue(event.target.value) ? { typeMatch: event.target.value } : { typeMatch: event.target.value, content: '' })}
          >
            {!catalog?.operators.some((o) => o.name === row.typeMatch) && <option value={row.typeMatch}>{row.typeMatch}</option>}
            {catalog?.operators.map((operator) => (
              <option key={operator.name} value={operator.name}>{operator.label}</option>
            ))}
          </select>
          <Icon name="chevron-down" className="select__chevron" />
        </div>
        <Errors id={`${ids.typeMatch}__error`} errors={errors.typeMatch} />
      </div>
      <div className="condition-builder__control">
        {needsValue(row.typeMatch) && (
          <>
            <div className={boxClass('content', 'input')}>
              <input
                id={ids.content}
                className="input__field"
                aria-label={t('form.conditions.value')}
                value={row.content}
                placeholder={placeholder}
                disabled={disabled}
                readOnly={readonly}
                aria-invalid={errors.content.length > 0 || undefined}
                aria-describedby={errorId('content')}
                onChange={(event) => onChange({ content: event.target.value })}
              />
            </div>
            <Errors id={`${ids.content}__error`} errors={errors.content} />
          </>
        )}
      </div>
      <button type="button" className="icon-button icon-button--critical" aria-label={t('form.conditions.remove', { n: index + 1 })} disabled={disabled || readonly} onClick={onRemove}>
        ×
      </button>
    </li>
  );
}
