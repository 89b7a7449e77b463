import { checkStoredSession } from '../lib/auth';
import { preloadFirstScreen } from './screens';

/**
 * What the first screen waits for, started as this module is evaluated:
 * main.tsx imports it before React DOM and the rest of the app, and module
 * bodies run in import order, so these requests go out before the bulk of the
 * entry script is evaluated instead of after it. The session check goes first,
 * so it is not queued behind the chunk requests on the browser's six
 * connections per host.
 */
export const firstScreen: Promise<void> = Promise.all([checkStoredSession(), preloadFirstScreen(window.location.pathname)]).then(
  () => undefined,
);
