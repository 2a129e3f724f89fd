// The login state of the whole app: unknown at start, then set by
// GET /api/admin/status. A status failure is only logged and the app loads as logged out.
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';

export interface AdminStatus {
  logged_in: boolean;
  username: string | null;
  must_change_password: boolean;
  login_hint: { username: string; password_source: 'file' | 'env'; password_file: string | null } | null;
}

interface AuthState {
  /** true until the first status call has finished */
  loading: boolean;
  isLoggedIn: boolean;
  /** a logged-in user is treated as an admin */
  isAdmin: boolean;
  status: AdminStatus | null;
  /** asks the server again (after login, password change, or a 401) */
  refresh(): Promise<AdminStatus | null>;
  /** calls the server, clears the flags and the stored username; the caller navigates to / */
  logout(): Promise<void>;
}

export const USERNAME_KEY = 'adminUsername';

const AuthContext = createContext<AuthState | null>(null);

export function AuthProvider({ children }: { children: ReactNode }) {
  const [status, setStatus] = useState<AdminStatus | null>(null);
  const [loading, setLoading] = useState(true);

  const refresh = useCallback(async () => {
    try {
      const response = await fetch('/api/admin/status', { credentials: 'include' });
      if (!response.ok) throw new Error(`status ${response.status}`);
      const next = (await response.json()) as AdminStatus;
      setStatus(next);
      return next;
    } catch (error) {
      console.warn('Admin status check failed', error);
      setStatus(null);
      return null;
    } finally {
      setLoading(false);
    }
  }, []);

  const logout = useCallback(async () => {
    // Forget the username at once: the page may move on before the server answers.
    try {
      localStorage.removeItem(USERNAME_KEY);
    } catch {
      // storage unavailable: nothing stored
    }
    try {
      await fetch('/api/admin/logout', { method: 'POST', credentials: 'include' });
    } catch (error) {
      console.warn('Logout failed', error);
    }
    setStatus((previous) =>
      previous ? { ...previous, logged_in: false, username: null, must_change_password: false } : null,
    );
  }, []);

  useEffect(() => {
    void refresh();
  }, [refresh]);

  const value = useMemo<AuthState>(() => {
    const isLoggedIn = status?.logged_in ?? false;
    return { loading, isLoggedIn, isAdmin: isLoggedIn, status, refresh, logout };
  }, [loading, status, refresh, logout]);
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthState {
  const state = useContext(AuthContext);
  if (!state) throw new Error('useAuth outside AuthProvider');
  return state;
}
