import type { Registry } from '@rjsf/utils';

/** What every form's widgets may read besides their own value; SchemaForm fills it from the session. */
export interface FormContext {
  /** ISO 4217 code of the shop's currency, for money fields. */
  currency: string;
  /** The store's IANA timezone (dates are store dates, spec 001 §4); unknown until the shop has loaded. */
  timezone?: string;
}

/** The form context of a widget's or field's registry; empty outside SchemaForm (tests, other forms). */
export function formContextOf(registry: Registry): Partial<FormContext> {
  return (registry.formContext ?? {}) as Partial<FormContext>;
}
