// The app: providers, the language from the path, the theme from the settings, header and footer
// around every route, and the route switch. The same tree renders on the server (entry-server.tsx)
// and hydrates in the browser (entry-client.tsx). The admin panel is loaded only on /admin paths,
// in the browser only, so public pages never fetch it.
import { QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useMemo, type CSSProperties } from 'react';
import { Redirect, Route, Router, Switch, useLocation } from 'wouter';
import { useT } from './i18n';
import { AuthProvider, useAuth } from './lib/auth';
import { themeVariables } from './lib/color';
import { LanguageProvider, wantedLanguage, type Lang } from './lib/i18n';
import { isAdminPath, languageBase, localizedPath, splitLanguage } from './lib/languagePath';
import { SettingsProvider, useSettings } from './lib/settings';
import { pageTitle, PUBLIC_PAGES } from './pages';
import { Footer } from './public/Footer';
import { Header } from './public/Header';
import { useSiteTitle } from './public/Home';

const AdminApp = lazy(() => import('./admin/AdminApp'));

export function createQueryClient(): QueryClient {
  const client = new QueryClient({
    // Public content that fails to load is only logged.
    queryCache: new QueryCache({
      onError: (error, query) => console.warn(`Could not load ${String(query.queryKey[0])}`, error),
    }),
  });
  // Every query's defaults, given as the defaults of the key every key starts with rather than as
  // the client's `defaultOptions`: the same options, but react-query merges the latter by a spread
  // that V8 runs about eight times slower (6 µs a merge, several merges a query, a render).
  client.setQueryDefaults([], {
    retry: 1,
    staleTime: 60_000,
    // A refetch clears the locator's chosen categories (settings loaded again): only on request.
    refetchOnWindowFocus: false,
  });
  return client;
}

function Loading() {
  const t = useT();
  return (
    <div className="page-loading" role="status">
      {t('app.loading')}
    </div>
  );
}

function ScrollToTop() {
  const [location] = useLocation();
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [location]);
  return null;
}

/**
 * Once in the browser: a visitor whose language (kept, or the browser's at the first visit)
 * differs from the page's, and is offered, is taken to the same page in theirs.
 */
function useLanguageRedirect(pathLang: Lang | null, offered: readonly Lang[]) {
  const [, navigate] = useLocation();
  useEffect(() => {
    if (!pathLang) return;
    const { rest } = splitLanguage(window.location.pathname);
    const wanted = wantedLanguage(pathLang, pathLang !== 'en', offered);
    if (wanted !== pathLang) navigate(`~${localizedPath(wanted, rest)}${window.location.search}`, { replace: true });
  }, [pathLang, offered, navigate]);
}

/** What <main> holds: the public page of the path, the admin panel, or a redirect to the home page. */
function Routes() {
  const auth = useAuth();
  return (
    <Switch>
      {Object.entries(PUBLIC_PAGES).map(([kind, page]) => (
        <Route key={kind} path={page.path} component={page.component} />
      ))}
      <Route path="/admin/*?">
        {auth.loading ? (
          <Loading />
        ) : (
          <Suspense fallback={<Loading />}>
            <AdminApp />
          </Suspense>
        )}
      </Route>
      <Route>
        <Redirect to="/" replace />
      </Route>
    </Switch>
  );
}

function Shell({ pathLang }: { pathLang: Lang | null }) {
  const auth = useAuth();
  const [, navigate] = useLocation();
  const { settings } = useSettings();
  const siteTitle = useSiteTitle();
  const [location] = useLocation();
  useLanguageRedirect(pathLang, settings.languages);

  // A place or group page names itself (PlacePage, GroupPage); the others as the server names them.
  const t = useT();
  useEffect(() => {
    if (!/^\/places?\//.test(location)) document.title = pageTitle(location, siteTitle, t);
  }, [siteTitle, location, t]);

  const theme = useMemo(
    () => themeVariables(settings.primaryColor, settings.secondaryColor, settings.fontFamily) as CSSProperties,
    [settings.primaryColor, settings.secondaryColor, settings.fontFamily],
  );

  const logout = async () => {
    await auth.logout();
    navigate('/');
  };

  return (
    <div className="app" style={theme}>
      <ScrollToTop />
      <Header
        siteTitle={siteTitle}
        logoUrl={settings.logoUrl}
        languages={settings.languages}
        isLoggedIn={auth.isLoggedIn}
        isAdmin={auth.isAdmin}
        onLogout={() => void logout()}
      />
      <main id="main" className="site-main" tabIndex={-1}>
        <Routes />
      </main>
      <Footer siteTitle={siteTitle} />
    </div>
  );
}

/** The language of the path, and the pages under its base ("/fr"); the admin under none. */
function Localized({ mainOnly }: { mainOnly: boolean }) {
  const [path] = useLocation();
  const { lang, rest } = splitLanguage(path);
  const admin = lang === 'en' && isAdminPath(rest);
  return (
    <LanguageProvider pathLang={admin ? null : lang}>
      <Router base={languageBase(lang)}>
        <AuthProvider>{mainOnly ? <Routes /> : <Shell pathLang={admin ? null : lang} />}</AuthProvider>
      </Router>
    </LanguageProvider>
  );
}

/**
 * `ssrPath`: the page's path on the server; the browser reads its own location. `mainOnly` (the
 * server's): what <main> holds alone, without the header and footer around it.
 */
export function App({
  queryClient,
  ssrPath,
  mainOnly = false,
}: {
  queryClient: QueryClient;
  ssrPath?: string;
  mainOnly?: boolean;
}) {
  return (
    <QueryClientProvider client={queryClient}>
      <SettingsProvider>
        <Router ssrPath={ssrPath}>
          <Localized mainOnly={mainOnly} />
        </Router>
      </SettingsProvider>
    </QueryClientProvider>
  );
}
