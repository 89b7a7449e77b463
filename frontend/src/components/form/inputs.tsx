import type { InputHTMLAttributes, ReactNode, SelectHTMLAttributes, TextareaHTMLAttributes } from 'react';

/** Marks a stand-in for a field whose code is still loading (a picker): a form's first-field focus waits for it. */
export const PENDING_FIELD = '[data-pending-field]';

export const inputClass =
  'block w-full rounded-lg border border-slate-300 bg-surface px-3 py-2 text-sm text-slate-900 placeholder:text-slate-400 focus:border-indigo-500 focus:outline-2 focus:outline-indigo-200 aria-invalid:border-red-500 disabled:bg-slate-100';

export function TextInput(props: InputHTMLAttributes<HTMLInputElement>) {
  return <input {...props} className={`${inputClass} ${props.className ?? ''}`} />;
}

export function TextArea(props: TextareaHTMLAttributes<HTMLTextAreaElement>) {
  return <textarea {...props} className={`${inputClass} ${props.className ?? ''}`} />;
}

export function Select(props: SelectHTMLAttributes<HTMLSelectElement>) {
  return <select {...props} className={`${inputClass} ${props.className ?? ''}`} />;
}

export const errorId = (id: string) => `${id}-error`;
/** Groups (radio choices, repeating rows) are named by their label through aria-labelledby. */
export const labelId = (id: string) => `${id}-label`;

/** Label above, control, then the validation message tied to the control via aria-describedby. */
export function FieldShell({
  id,
  label,
  error,
  children,
  labelAfter = false,
}: {
  id: string;
  label: ReactNode;
  error?: string;
  children: ReactNode;
  /** Checkboxes put their label beside the box instead of above it. */
  labelAfter?: boolean;
}) {
  const labelNode = (
    <label id={labelId(id)} htmlFor={id} className={labelAfter ? 'text-sm text-slate-700' : 'mb-1 block text-sm font-medium text-slate-700'}>
      {label}
    </label>
  );
  return (
    <div>
      {labelAfter ? (
        <div className="flex items-center gap-2">
          {children}
          {labelNode}
        </div>
      ) : (
        <>
          {labelNode}
          {children}
        </>
      )}
      {error && (
        <p id={errorId(id)} className="mt-1 text-xs text-red-600">
          {error}
        </p>
      )}
    </div>
  );
}
