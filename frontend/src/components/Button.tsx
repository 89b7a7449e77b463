import type { ButtonHTMLAttributes } from 'react';
import { Spinner } from './Spinner';

const variants = {
  // Hover darkens: white text keeps 4.5:1 under the pointer too.
  primary: 'bg-accent text-white hover:bg-accent-strong disabled:bg-indigo-300',
  secondary: 'border border-slate-300 bg-surface text-slate-700 hover:bg-slate-50 disabled:text-slate-400',
  danger: 'bg-danger text-white hover:bg-danger-strong disabled:bg-red-300',
  ghost: 'text-slate-600 hover:bg-slate-100 disabled:text-slate-300',
} as const;

export type ButtonVariant = keyof typeof variants;

export const buttonClass = (variant: ButtonVariant = 'secondary') =>
  `inline-flex items-center justify-center gap-2 rounded-lg px-3.5 py-2 text-sm font-medium transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 disabled:cursor-not-allowed ${variants[variant]}`;

export function Button({
  variant = 'secondary',
  busy = false,
  className = '',
  children,
  type = 'button',
  disabled,
  ...rest
}: ButtonHTMLAttributes<HTMLButtonElement> & { variant?: ButtonVariant; busy?: boolean }) {
  return (
    <button type={type} className={`${buttonClass(variant)} ${className}`} disabled={disabled || busy} aria-busy={busy || undefined} {...rest}>
      {busy && <Spinner className="size-4" />}
      {children}
    </button>
  );
}

/**
 * A square icon-only button; the label is its accessible name and tooltip. With
 * `disabledReason` it is disabled and says why, on hover (a wrapper's tooltip:
 * a disabled button gets no pointer events) and to assistive technology.
 */
export function IconButton({
  label,
  disabledReason,
  className = '',
  children,
  ...rest
}: ButtonHTMLAttributes<HTMLButtonElement> & { label: string; disabledReason?: string }) {
  const button = (
    <button
      type="button"
      aria-label={label}
      title={disabledReason ? undefined : label}
      aria-description={disabledReason}
      className={`inline-flex size-8 items-center justify-center rounded-md text-slate-600 hover:bg-slate-100 hover:text-indigo-700 focus-visible:outline-2 focus-visible:outline-indigo-600 disabled:cursor-not-allowed disabled:text-slate-300 disabled:hover:bg-transparent ${className}`}
      {...rest}
      disabled={Boolean(disabledReason) || rest.disabled}
    >
      {children}
    </button>
  );
  return disabledReason ? (
    <span title={disabledReason} className="inline-flex">
      {button}
    </span>
  ) : (
    button
  );
}
