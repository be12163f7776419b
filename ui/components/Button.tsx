import type { AnchorHTMLAttributes, ComponentPropsWithRef, ReactNode } from 'react';
import { Link, type LinkProps } from 'react-router-dom';

export type ButtonVariant = 'primary' | 'secondary' | 'plain' | 'critical' | 'critical-plain';

function buttonClass(variant: ButtonVariant, extra?: string): string {
  return ['btn', `btn--${variant}`, extra].filter(Boolean).join(' ');
}

export interface ButtonProps extends ComponentPropsWithRef<'button'> {
  variant?: ButtonVariant;
  /** Shows a spinner and blocks clicks while an action runs. */
  loading?: boolean;
  children: ReactNode;
}

/** The one button: always a native `<button type="button">` unless told otherwise. */
export function Button({ variant = 'secondary', loading = false, className, children, disabled, ...rest }: ButtonProps) {
  return (
    <button
      type="button"
      {...rest}
      className={buttonClass(variant, className)}
      disabled={disabled || loading}
      aria-busy={loading || undefined}
    >
      {loading && <span className="spinner" aria-hidden="true" />}
      <span className="btn__label">{children}</span>
    </button>
  );
}

/** A router link that looks like a button. */
export function ButtonLink({ variant = 'secondary', className, ...rest }: LinkProps & { variant?: ButtonVariant }) {
  return <Link {...rest} className={buttonClass(variant, className)} />;
}

/** An external link (mailto:, other sites) that looks like a button. */
export function ButtonAnchor({
  variant = 'secondary',
  className,
  ...rest
}: AnchorHTMLAttributes<HTMLAnchorElement> & { variant?: ButtonVariant }) {
  return <a {...rest} className={buttonClass(variant, className)} />;
}
