export function Spinner({ label, className = 'size-5' }: { label?: string; className?: string }) {
  return (
    <span role={label ? 'status' : undefined} aria-label={label} className="inline-flex items-center gap-2">
      <span
        aria-hidden="true"
        className={`${className} animate-spin rounded-full border-2 border-current border-r-transparent`}
      />
      {label && <span className="sr-only">{label}</span>}
    </span>
  );
}
