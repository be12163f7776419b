import type { ReactNode } from 'react';
import { Icon } from './Icon';

export interface SelectProps<T extends string | number> {
  /** The visible label. */
  label: ReactNode;
  value: T;
  options: readonly { value: T; label: string }[];
  /** Called with the chosen option's value as the element gives it (a string). */
  onChange: (value: string) => void;
  disabled?: boolean;
  className?: string;
}

/** A labelled native select in the admin's style (label beside or above, chevron drawn by CSS). */
export function Select<T extends string | number>({ label, value, options, onChange, disabled, className }: SelectProps<T>) {
  return (
    <label className={['inline-form__field', className].filter(Boolean).join(' ')}>
      <span>{label}</span>
      <span className="select">
        <select className="select__field" value={value} disabled={disabled} onChange={(e) => onChange(e.target.value)}>
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
        <Icon name="chevron-down" className="select__chevron" />
      </span>
    </label>
  );
}
