// The app: providers, the theme from the settings, header and footer around every route, and the
// route switch. The admin panel is loaded only on /admin paths, so public pages never fetch it.
import { QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useMemo, type CSSProperties } from 'react';
import { Redirect, Route, Switch, useLocation } from 'wouter';
import { useT } from './i18n';
import { AuthProvider, useAuth } from './lib/auth';
import { themeVariables } from './lib/color';
import { LanguageProvider, useLanguage } from './lib/i18n';
import { useSettings } from './lib/settings';
import { ContactPage } from './public/ContactPage';
import { Footer } from './public/Footer';
import { Header } from './public/Header';
import { Home, useSiteTitle } from './public/Home';
import { LegalPage } from './public/LegalPage';
import { PlacePage } from './public/PlacePage';
import { PlansPage } from './public/PlansPage';

const AdminApp = lazy(() => import('./admin/AdminApp'));

export function createQueryClient(): QueryClient {
  return new QueryClient({
    // Public content that fails to load is only logged (SPEC.md section 8).
    queryCache: new QueryCache({ onError: (error, query) => console.warn(`Could not load ${String(query.queryKey[0])}`, error) }),
    defaultOptions: {
      queries: {
        retry: 1,
        staleTime: 60_000,
        // A refetch clears the locator's chosen categories (settings loaded again): only on request.
        refetchOnWindowFocus: false,
      },
    },
  });
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

function Shell() {
  const auth = useAuth();
  const [, navigate] = useLocation();
  const { lang, setLang } = useLanguage();
  const { settings } = useSettings();
  const siteTitle = useSiteTitle();
  const [location] = useLocation();

  // Only the languages the admin offers; English (or the first offered) when ours is not one.
  useEffect(() => {
    if (!settings.languages.includes(lang)) setLang(settings.languages.includes('en') ? 'en' : settings.languages[0]);
  }, [settings.languages, lang, setLang]);

  // A place page and a legal page name themselves; every other page is the site's title.
  useEffect(() => {
    if (!location.startsWith('/place/') && location !== '/privacy' && location !== '/terms') document.title = siteTitle;
  }, [siteTitle, location]);

  const theme = useMemo(
    () => themeVariables(settings.primaryColor, settings.secondaryColor, settings.fontFamily) as CSSProperties,
    [settings.primaryColor, settings.secondaryColor, settings.fontFamily],
  );

  if (auth.loading) return <Loading />;

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
        <Switch>
          <Route path="/" component={Home} />
          <Route path="/contact" component={ContactPage} />
          <Route path="/plans" component={PlansPage} />
          <Route path="/place/:type/:id" component={PlacePage} />
          <Route path="/privacy">
            <LegalPage kind="privacy" />
          </Route>
          <Route path="/terms">
            <LegalPage kind="terms" />
          </Route>
          <Route path="/admin/*?">
            <Suspense fallback={<Loading />}>
              <AdminApp />
            </Suspense>
          </Route>
          <Route>
            <Redirect to="/" replace />
          </Route>
        </Switch>
      </main>
      <Footer siteTitle={siteTitle} />
    </div>
  );
}

export function App({ queryClient }: { queryClient: QueryClient }) {
  return (
    <QueryClientProvider client={queryClient}>
      <LanguageProvider>
        <AuthProvider>
          <Shell />
        </AuthProvider>
      </LanguageProvider>
    </QueryClientProvider>
  );
}
