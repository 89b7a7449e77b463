/** The same markup index.html shows before the script runs, so the hand-over does not flicker. */
export function Splash() {
  return (
    <div className="splash" role="status" aria-label="Loading perkdesk">
      <div className="splash-mark">perkdesk</div>
      <div className="splash-spinner" />
    </div>
  );
}
