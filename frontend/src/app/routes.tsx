import { useSignals } from '@preact/signals-react/runtime';
import { Suspense, useEffect } from 'react';
import { Redirect, Route, Switch, useLocation } from 'wouter';
import { signOut } from '../lib/auth';
import { ErrorPage } from './ErrorPage';
import { GuestOnly, RequireAuth } from './guards';
import { lazyScreen } from './lazyScreen';
import { adminPathPattern, homePath, sectionAt } from './sections';
import { session } from '../lib/session';
import { Splash } from './Splash';

// Each screen is its own chunk: /auth/login loads none of the admin shell.
const LoginPage = lazyScreen(() => import('../features/auth/LoginPage'));
const RegistrationPage = lazyScreen(() => import('../features/auth/RegistrationPage'));
const ForgotPasswordPage = lazyScreen(() => import('../features/auth/ForgotPasswordPage'));
const ResetPasswordPage = lazyScreen(() => import('../features/auth/ResetPasswordPage'));
const AgreementPage = lazyScreen(() => import('../features/legal/AgreementPage'));
const AdminLayout = lazyScreen(() => import('./layout/AdminLayout'));

/**
 * Starts fetching the code of the screen at `path` while the app still checks
 * the session, instead of after it: the chunks of the sign-in screen, or of the
 * signed-in frame and the section it opens (its table and form machinery come
 * with it as static imports). Without this the first paint waited for the
 * splash to end before these requests even began.
 */
export function preloadFirstScreen(path: string): void {
  const lower = path.toLowerCase();
  const signedIn = Boolean(session.peek()?.user);
  if (lower.startsWith('/auth/registration')) void RegistrationPage.preload();
  else if (lower.startsWith('/auth/forgot-password')) void ForgotPasswordPage.preload();
  else if (lower.startsWith('/auth/reset-password')) void ResetPasswordPage.preload();
  else if (lower === '/privacy' || lower === '/terms') void AgreementPage.preload();
  else if (adminPathPattern.test(path) && signedIn) {
    void AdminLayout.preload();
    const section = sectionAt(path === '/' ? homePath(session.peek()?.user?.roleId) : path);
    void section?.screen?.preload();
  } else if (lower.startsWith('/auth') || adminPathPattern.test(path)) void LoginPage.preload();
}

function Logout() {
  const [, navigate] = useLocation();
  useEffect(() => {
    let active = true;
    void signOut().then(() => active && navigate('/auth/login', { replace: true }));
    return () => {
      active = false;
    };
  }, [navigate]);
  return <Splash />;
}

/** The spec's route table (platform.md section 2). */
export function AppRoutes() {
  useSignals();
  return (
    <Suspense fallback={<Splash />}>
      <Switch>
        <Route path="/auth/login">
          <GuestOnly>
            <LoginPage />
          </GuestOnly>
        </Route>
        <Route path="/auth/registration">
          <GuestOnly>
            <RegistrationPage />
          </GuestOnly>
        </Route>
        <Route path="/auth/forgot-password">
          <GuestOnly>
            <ForgotPasswordPage />
          </GuestOnly>
        </Route>
        <Route path="/auth/reset-password">
          <GuestOnly>
            <ResetPasswordPage />
          </GuestOnly>
        </Route>
        <Route path={/^\/auth(?:\/.*)?$/i}>
          <Redirect to="/auth/login" replace />
        </Route>
        <Route path="/privacy">
          <AgreementPage />
        </Route>
        <Route path="/terms">
          <AgreementPage />
        </Route>
        <Route path="/error">
          <Redirect to="/error/error-v1" replace />
        </Route>
        <Route path="/error/:variant">{(params) => <ErrorPage variant={params.variant} />}</Route>
        <Route path="/logout">
          <Logout />
        </Route>
        <Route path={adminPathPattern}>
          <RequireAuth>
            <AdminLayout />
          </RequireAuth>
        </Route>
        <Route>
          <Redirect to="/error/error-v5" replace />
        </Route>
      </Switch>
    </Suspense>
  );
}
