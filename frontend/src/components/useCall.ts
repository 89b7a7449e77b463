import { useState } from 'react';
import { errorMessage } from '../lib/api';

/** What `useCall` gives a button: whether its call runs, the last refusal, and the runner. */
export interface Call {
  busy: boolean;
  /** The last failure's message (the server's, or the lost connection), until the next run. */
  error: string | null;
  /** Runs `call` (one at a time from the button); true when it succeeded. */
  run: (call: () => Promise<unknown>) => Promise<boolean>;
}

/** A call a button starts (a confirmation's, a replay's): busy while it runs, its refusal kept to show beside it. */
export function useCall(): Call {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = async (call: () => Promise<unknown>) => {
    setBusy(true);
    setError(null);
    try {
      await call();
      return true;
    } catch (failure) {
      setError(errorMessage(failure));
      return false;
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, run };
}
