import Form from '@rjsf/core';
import type { IChangeEvent } from '@rjsf/core';
import type { ErrorSchema, RJSFSchema, UiSchema } from '@rjsf/utils';
import validator from '@rjsf/validator-ajv8';
import { useAtomValue } from 'jotai';
import { useCallback, useMemo, useRef, type KeyboardEvent, type Ref } from 'react';
import type { JsonObject } from '../../engine/types';
import { currencyAtom, timezoneAtom } from '../state/session';
import { transformErrors } from './error-messages';
import { fields } from './fields';
import type { FormContext } from './form-context';
import { sameFormData } from './form-data';
import { templates } from './templates';
import { widgets } from './widgets';

export interface SchemaFormProps {
  schema: JsonObject;
  uiSchema?: JsonObject;
  formData: JsonObject;
  onChange: (data: JsonObject) => void;
  /** Server-side errors placed on their fields (see `issuesToErrorSchema`). */
  extraErrors?: ErrorSchema;
  /** Gives the page `validateForm()` for its save bar. */
  formRef?: Ref<Form>;
  disabled?: boolean;
  id?: string;
  /**
   * Enter in a one-line field asks the page to save, as in any form (there is no submit button: the
   * page's save bar saves). Enter a widget handles itself (a picker's search) does not.
   */
  onSubmit?: () => void;
}

/** Does nothing: the page saves (see `onSubmit`). */
function noSubmit(): void {}

/** Whether Enter on this element means "save the form": a one-line field, not a list box or button. */
function submitsOnEnter(target: EventTarget): boolean {
  if (!(target instanceof HTMLInputElement)) return false;
  if (['button', 'submit', 'reset', 'checkbox', 'radio', 'file', 'color', 'range'].includes(target.type)) return false;
  return target.getAttribute('role') !== 'combobox' && !target.hasAttribute('aria-autocomplete');
}

/**
 * The one generic form: any kind's schema + ui.json rendered with our theme. Validation runs when the
 * page asks (`formRef.current.validateForm()`), not on every keystroke; there is no submit button
 * because the contextual save bar saves.
 *
 * Typing stays inside RJSF (issue 12 "Speed": keystroke p95 ≤ 50 ms under 4× CPU): the page's
 * `formData` is handed to RJSF only when the page changes it itself (discard, a reload, a card
 * below the form setting a value), not when it merely stores what the form reported. Handing it
 * back on every keystroke made RJSF re-derive its whole state a second time per key
 * (`getSnapshotBeforeUpdate` → `getStateFromProps`) and re-render from the root; now the `<Form>`
 * element stays the same across the page's re-renders and only the edited field re-renders.
 */
export function SchemaForm({ schema, uiSchema, formData, onChange, extraErrors, formRef, disabled, id, onSubmit }: SchemaFormProps) {
  const currency = useAtomValue(currencyAtom);
  const timezone = useAtomValue(timezoneAtom);
  const formContext = useMemo<FormContext>(() => ({ currency, timezone }), [currency, timezone]);

  // What the form holds now (its last report, or what the page last handed it), and how many times the
  // page has handed it something of its own: only that (besides schema, errors, …) re-renders <Form>.
  const held = useRef({ data: formData, version: 0 });
  if (formData !== held.current.data && !sameFormData(formData, held.current.data)) {
    held.current = { data: formData, version: held.current.version + 1 };
  }
  const version = held.current.version;

  const latest = useRef({ onChange, onSubmit });
  latest.current = { onChange, onSubmit };
  const report = useCallback((event: IChangeEvent) => {
    const data = (event.formData ?? {}) as JsonObject;
    held.current = { data, version: held.current.version };
    latest.current.onChange(data);
  }, []);
  const onKeyDown = useCallback((event: KeyboardEvent<HTMLDivElement>) => {
    const submit = latest.current.onSubmit;
    if (!submit || event.key !== 'Enter' || event.defaultPrevented || event.nativeEvent.isComposing || !submitsOnEnter(event.target)) return;
    event.preventDefault();
    // After the field's own Enter handler has handed its value over and RJSF has reported it.
    setTimeout(submit, 0);
  }, []);

  const form = useMemo(
    () => (
      <Form
        // RJSF compares new props with the last ones it was given, which the typing never changed, so
        // data the page hands over (discard, reload) starts the form afresh rather than being missed.
        key={version}
        ref={formRef}
        id={id}
        className="schema-form"
        schema={schema as RJSFSchema}
        uiSchema={uiSchema as UiSchema | undefined}
        formData={held.current.data}
        onChange={report}
        onSubmit={noSubmit}
        // The page reacts to `validateForm()`'s answer; without a handler RJSF logs every failure.
        onError={noSubmit}
        transformErrors={transformErrors}
        validator={validator}
        widgets={widgets}
        fields={fields}
        templates={templates}
        formContext={formContext}
        extraErrors={extraErrors}
        disabled={disabled}
        liveValidate={false}
        showErrorList={false}
        noHtml5Validate
        focusOnFirstError
      >
        {/* No submit button: the contextual save bar saves. */}
        <></>
      </Form>
    ),
    // `version` stands for the data the page handed over (read from `held` when it changes).
    [formRef, id, schema, uiSchema, report, formContext, extraErrors, disabled, version],
  );
  return <div onKeyDown={onKeyDown}>{form}</div>;
}
