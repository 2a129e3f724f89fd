// The admin frame: a sidebar of the pages (the current one marked), collapsible behind a
// Menu button on small screens, the signed-in name and the logout button.
import { useEffect, useState, type ReactNode } from 'react';
import { Link, useLocation } from 'wouter';
import { useQueryClient } from '@tanstack/react-query';
import { useAuth } from '../lib/auth';
import { useT, type TextKey } from './i18n';
import { isTrpcQueryKey } from './trpc';

export const ADMIN_PAGES: { path: string; label: TextKey }[] = [
  { path: '/admin/dashboard', label: 'navDashboard' },
  { path: '/admin/settings', label: 'navSettings' },
  { path: '/admin/users', label: 'navUsers' },
  { path: '/admin/ads', label: 'navAds' },
  { path: '/admin/messages', label: 'navMessages' },
  { path: '/admin/plans', label: 'navPlans' },
  { path: '/admin/places', label: 'navPlacesData' },
  { path: '/admin/keys', label: 'navKeys' },
];

/** Ends the session and returns to the home page. */
export function useLogout(): () => Promise<void> {
  const auth = useAuth();
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  return async () => {
    // Leave first, so the admin's guard never sees the signed-out state and redirects to /admin.
    navigate('/');
    await auth.logout();
    // Nothing of the admin's data stays in memory for the next person at this browser.
    queryClient.removeQueries({ predicate: (query) => isTrpcQueryKey(query.queryKey) });
  };
}

export function Shell({ children }: { children: ReactNode }) {
  const t = useT();
  const auth = useAuth();
  const logout = useLogout();
  const [location] = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);

  // A link followed on a phone should not leave the menu covering the page.
  useEffect(() => setMenuOpen(false), [location]);

  const linkProps = (path: string) => ({
    href: path,
    'aria-current': location === path ? ('page' as const) : undefined,
    className: location === path ? 'admin-nav-link admin-nav-current' : 'admin-nav-link',
  });

  return (
    <div className="admin-shell">
      <div className="admin-sidebar-wrap">
        <button
          type="button"
          className="admin-menu-toggle admin-button"
          aria-expanded={menuOpen}
          aria-controls="admin-sidebar"
          onClick={() => setMenuOpen((open) => !open)}
        >
          {t('menu')}
        </button>
        <nav
          id="admin-sidebar"
          className={`admin-sidebar ${menuOpen ? 'admin-sidebar-open' : ''}`}
          aria-label={t('adminNavigation')}
        >
          <p className="admin-sidebar-title">{t('adminPanel')}</p>
          <ul>
            {ADMIN_PAGES.map((page) => (
              <li key={page.path}>
                <Link {...linkProps(page.path)}>{t(page.label)}</Link>
              </li>
            ))}
          </ul>
          <div className="admin-sidebar-footer">
            {auth.status?.username && (
              <p className="admin-signed-in">{t('signedInAs', { username: auth.status.username })}</p>
            )}
            <Link {...linkProps('/admin/password')}>{t('changePassword')}</Link>
            <button type="button" className="admin-button admin-logout" onClick={() => void logout()}>
              {t('logout')}
            </button>
          </div>
        </nav>
      </div>
      <div className="admin-content">{children}</div>
    </div>
  );
}
