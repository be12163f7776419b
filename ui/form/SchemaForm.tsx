import Form from '@rjsf/core';
import type { ErrorSchema, RJSFSchema, UiSchema } from '@rjsf/utils';
import validator from '@rjsf/validator-ajv8';
import { useAtomValue } from 'jotai';
import { useMemo, type Ref } from 'react';
import type { JsonObject } from '../../engine/types';
import { currencyAtom, timezoneAtom } from '../state/session';
import { transformErrors } from './error-messages';
import { fields } from './fields';
import type { FormContext } from './form-context';
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
}

/**
 * The one generic form: any kind's schema + ui.json rendered with our theme. Validation runs when the
 * page asks (`formRef.current.validateForm()`), not on every keystroke; there is no submit button
 * because the contextual save bar saves.
 */
export function SchemaForm({ schema, uiSchema, formData, onChange, extraErrors, formRef, disabled, id }: SchemaFormProps) {
  const currency = useAtomValue(currencyAtom);
  const timezone = useAtomValue(timezoneAtom);
  const formContext = useMemo<FormContext>(() => ({ currency, timezone }), [currency, timezone]);
  return (
    <Form
      ref={formRef}
      id={id}
      className="schema-form"
      schema={schema as RJSFSchema}
      uiSchema={uiSchema as UiSchema | undefined}
      formData={formData}
      onChange={(event) => onChange((event.formData ?? {}) as JsonObject)}
      onSubmit={() => {}}
      // The page reacts to `validateForm()`'s answer; without a handler RJSF logs every failure.
      onError={() => {}}
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
  );
}
