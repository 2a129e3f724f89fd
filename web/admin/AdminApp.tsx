// The admin panel, loaded only on /admin routes. /admin is the sign-in page (or a redirect to
// the dashboard when signed in); every /admin/... page needs a session, and a generated
// password must be changed before anything else opens. A session that runs out while a page
// is open brings the sign-in form up over the page, which stays mounted and keeps its edits.
import { useEffect, useState } from 'react';
import { Redirect, Route, Switch, useLocation } from 'wouter';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useAuth } from '../lib/auth';
import './admin.css';
import { ChangePassword } from './ChangePassword';
import { LoginForm } from './LoginForm';
import { notice, useT } from './i18n';
import { Ads } from './pages/Ads';
import { Dashboard } from './pages/Dashboard';
import { Messages } from './pages/Messages';
import { Plans } from './pages/Plans';
import { PlacesData } from './pages/PlacesData';
import { Settings } from './pages/Settings';
import { Users } from './pages/Users';
import { Keys } from './pages/Keys';
import { Shell } from './Shell';
import { createAdminClient, isTrpcQueryKey, onAuthProblem, trpc } from './trpc';
import { Dialog, PageTitle } from './ui';

const retryUnlessHopeless = (failures: number, error: unknown) => {
  const code = (error as { data?: { code?: string } } | null)?.data?.code;
  // Asking again will not bring a session back, nor make bad input good.
  if (code === 'UNAUTHORIZED' || code === 'FORBIDDEN' || code === 'BAD_REQUEST' || code === 'NOT_FOUND') return false;
  return failures < 2;
};

/**
 * The admin's queries share the app's QueryClient, whose defaults suit the public pages (answers
 * kept a minute). Admin answers are asked again whenever a page opens or the window regains focus.
 * tRPC's query keys start with the procedure path as an array, so [['messages']] matches them all.
 */
function applyAdminQueryDefaults(queryClient: QueryClient): void {
  for (const root of ['users', 'settings', 'ads', 'plans', 'messages', 'visits', 'keys']) {
    queryClient.setQueryDefaults([[root]], { retry: retryUnlessHopeless, staleTime: 0, refetchOnWindowFocus: true });
  }
}

export default function AdminApp() {
  const queryClient = useQueryClient();
  const [client] = useState(createAdminClient);
  useState(() => applyAdminQueryDefaults(queryClient));
  return (
    <trpc.Provider client={client} queryClient={queryClient}>
      <div className="admin-root">
        <Switch>
          <Route path="/admin">
            <LoginPage />
          </Route>
          <Route>
            <ProtectedArea />
          </Route>
        </Switch>
      </div>
    </trpc.Provider>
  );
}

function Loading() {
  const t = useT();
  return (
    <p className="admin-loading" role="status">
      {t('loading')}
    </p>
  );
}

function LoginPage() {
  const t = useT();
  const auth = useAuth();
  const [, navigate] = useLocation();
  if (auth.loading) return <Loading />;
  if (auth.isLoggedIn) return <Redirect to="/admin/dashboard" replace />;
  return (
    <section className="admin-login-page">
      <PageTitle>{t('adminLogin')}</PageTitle>
      <LoginForm onSuccess={() => navigate('/admin/dashboard')} />
    </section>
  );
}

function ProtectedArea() {
  const t = useT();
  const auth = useAuth();
  const queryClient = useQueryClient();
  const [sessionLost, setSessionLost] = useState(false);

  const refreshAuth = auth.refresh;
  useEffect(
    () =>
      onAuthProblem((problem) => {
        if (problem === 'unauthorized') setSessionLost(true);
        // The password must be changed first: the status says so, and the guard shows the form.
        else void refreshAuth();
      }),
    [refreshAuth],
  );

  if (auth.loading) return <Loading />;
  // Not signed in at all (a fresh visit, or after logout): the sign-in page. A session lost
  // while a page is open keeps the page (and its edits) under the sign-in dialog instead.
  if (!auth.isLoggedIn && !sessionLost) return <Redirect to="/admin" replace />;
  return (
    <>
      {auth.status?.must_change_password ? (
        <ChangePassword forced />
      ) : (
        <Shell>
          <Switch>
            <Route path="/admin/dashboard" component={Dashboard} />
            <Route path="/admin/settings" component={Settings} />
            <Route path="/admin/users" component={Users} />
            <Route path="/admin/keys" component={Keys} />
            <Route path="/admin/ads" component={Ads} />
            <Route path="/admin/messages" component={Messages} />
            <Route path="/admin/plans" component={Plans} />
            <Route path="/admin/places" component={PlacesData} />
            <Route path="/admin/password">
              <ChangePassword forced={false} />
            </Route>
            <Route>
              <Redirect to="/admin/dashboard" replace />
            </Route>
          </Switch>
        </Shell>
      )}
      <Dialog
        open={sessionLost}
        title={t('sessionExpiredTitle')}
        onClose={() => undefined}
        className="admin-session-dialog"
      >
        <LoginForm
          intro={notice(t, 'pleaseLogin')}
          onSuccess={() => {
            setSessionLost(false);
            // Everything that failed while signed out is asked again.
            void queryClient.invalidateQueries({ predicate: (query) => isTrpcQueryKey(query.queryKey) });
          }}
        />
      </Dialog>
    </>
  );
}
