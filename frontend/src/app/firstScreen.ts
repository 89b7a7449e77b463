import { preloadFirstScreen } from './screens';

/**
 * The first screen's code, requested as this module is evaluated. main.tsx
 * imports it before React DOM and the rest of the app, and module bodies run
 * in import order, so these requests go out before the bulk of the entry
 * script is evaluated instead of after it.
 */
export const firstScreen = preloadFirstScreen(window.location.pathname);
