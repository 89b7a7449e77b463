import { useEffect, useState } from 'react';
import { checkStoredSession } from '../lib/auth';
import { restoreUiLanguage } from '../lib/i18n';
import { syncSessionAcrossTabs } from '../lib/session';
import { AppRoutes } from './routes';
import { Splash } from './Splash';
import { ToastRegion } from '../components/Toast';

const SPLASH_LIMIT_MS = 3000;

/**
 * Ready once the stored session has been checked against the server and the
 * UI language is loaded, and, when main.tsx passes `firstScreen`
 * (firstScreen.ts), once that check and the first screen's code are there, so
 * the routes render without suspending; never later than 3 s, whatever the
 * network does.
 */
function useStartup(firstScreen: Promise<void> | undefined): boolean {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    let active = true;
    const stopSync = syncSessionAcrossTabs();
    const known = Promise.all([restoreUiLanguage(), firstScreen ?? checkStoredSession()]);
    const limit = new Promise((resolve) => setTimeout(resolve, SPLASH_LIMIT_MS));
    void Promise.race([known, limit]).then(() => active && setReady(true));
    return () => {
      active = false;
      stopSync();
    };
  }, [firstScreen]);
  return ready;
}

export function App({ firstScreen }: { firstScreen?: Promise<void> }) {
  const ready = useStartup(firstScreen);
  return (
    <>
      {ready ? <AppRoutes /> : <Splash />}
      <ToastRegion />
    </>
  );
}
