import { useSignals } from '@preact/signals-react/runtime';
import { Suspense, useEffect } from 'react';
import { Redirect, Route, Switch, useLocation } from 'wouter';
import { signOut } from '../lib/auth';
import { ErrorPage } from './ErrorPage';
import { GuestOnly, RequireAuth } from './guards';
import { adminPathPattern } from './sections';
import { AdminLayout, AgreementPage, ForgotPasswordPage, LoginPage, RegistrationPage, ResetPasswordPage } from './screens';
import { Splash } from './Splash';

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

/** The route table of the product specification (its platform part, section 2). */
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
