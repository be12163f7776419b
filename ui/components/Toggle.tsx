import type { FocusEventHandler } from 'react';

export interface ToggleProps {
  checked: boolean;
  onChange: (checked: boolean) => void;
  /** Accessible name when no `<label for>` names it, e.g. "Turn on Place order". */
  label?: string;
  id?: string;
  name?: string;
  disabled?: boolean;
  describedBy?: string;
  onBlur?: FocusEventHandler<HTMLInputElement>;
  onFocus?: FocusEventHandler<HTMLInputElement>;
}

/** An on/off switch: a native checkbox with role="switch", styled as a toggle; Space flips it. */
export function Toggle({ checked, onChange, label, id, name, disabled, describedBy, onBlur, onFocus }: ToggleProps) {
  return (
    <input
      type="checkbox"
      role="switch"
      id={id}
      name={name}
      className="toggle"
      checked={checked}
      aria-label={label}
      aria-describedby={describedBy}
      disabled={disabled}
      onChange={(event) => onChange(event.target.checked)}
      onClick={(event) => event.stopPropagation()}
      onBlur={onBlur}
      onFocus={onFocus}
    />
  );
}
