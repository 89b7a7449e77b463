import { lazyScreen } from './lazyScreen';
import { adminPathPattern, homePath, sectionAt } from './sections';
import { session } from '../lib/session';

// Each screen is its own chunk: /auth/login loads none of the admin shell.
export const LoginPage = lazyScreen(() => import('../features/auth/LoginPage'));
export const RegistrationPage = lazyScreen(() => import('../features/auth/RegistrationPage'));
export const ForgotPasswordPage = lazyScreen(() => import('../features/auth/ForgotPasswordPage'));
export const ResetPasswordPage = lazyScreen(() => import('../features/auth/ResetPasswordPage'));
export const AgreementPage = lazyScreen(() => import('../features/legal/AgreementPage'));
export const AdminLayout = lazyScreen(() => import('./layout/AdminLayout'));

/**
 * Starts fetching the code of the screen at `path` while the app still checks
 * the session, instead of after it: the chunks of the sign-in screen, or of the
 * signed-in frame and the section it opens (its table and form machinery come
 * with it as static imports). Without this the first paint waited for the
 * splash to end before these requests even began. The returned promise settles
 * when that code is there (never rejects): the splash waits for it, so the
 * first render of the routes finds the screen loaded and does not suspend.
 */
export function preloadFirstScreen(path: string): Promise<void> {
  const lower = path.toLowerCase();
  const signedIn = Boolean(session.peek()?.user);
  let loads: (Promise<unknown> | undefined)[] = [];
  if (lower.startsWith('/auth/registration')) loads = [RegistrationPage.preload()];
  else if (lower.startsWith('/auth/forgot-password')) loads = [ForgotPasswordPage.preload()];
  else if (lower.startsWith('/auth/reset-password')) loads = [ResetPasswordPage.preload()];
  else if (lower === '/privacy' || lower === '/terms') loads = [AgreementPage.preload()];
  else if (adminPathPattern.test(path) && signedIn) {
    const section = sectionAt(path === '/' ? homePath(session.peek()?.user?.roleId) : path);
    loads = [AdminLayout.preload(), section?.screen.preload()];
  } else if (lower.startsWith('/auth') || adminPathPattern.test(path)) loads = [LoginPage.preload()];
  // A chunk that fails to load is reported by the screen's own render, not here.
  return Promise.all(loads).then(
    () => undefined,
    () => undefined,
  );
}
