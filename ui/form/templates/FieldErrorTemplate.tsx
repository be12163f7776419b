import type { FieldErrorProps } from '@rjsf/utils';
import { errorId } from '@rjsf/utils';

/** A field's errors in critical text under the control, tied to it by `aria-describedby`. */
export function FieldErrorTemplate({ errors = [], fieldPathId }: FieldErrorProps) {
  const messages = errors.filter(Boolean);
  if (messages.length === 0) return null;
  return (
    <div id={errorId(fieldPathId)} className="form-field__error">
      {messages.map((message, index) => (
        <p key={index}>
          <span className="form-field__error-icon" aria-hidden="true">
            !
          </span>
          {message}
        </p>
      ))}
    </div>
  );
}
