// The admin sign-in form: on the /admin page, and again over the panel when a session expires.
import { useRef, useState, type FormEvent } from 'react';
import { Link } from 'wouter';
import { USERNAME_KEY, useAuth } from '../lib/auth';
import { describeError, isNetworkError } from './errors';
import { useT, type Notice } from './i18n';
import { trpc } from './trpc';
import { Banner, Field, focusFirstInvalid } from './ui';

interface LoginFormProps {
  /** shown above the form (e.g. why the admin must sign in again) */
  intro?: Notice | null;
  /** called once the server accepted the login and the status was refreshed */
  onSuccess: () => void;
}

export function LoginForm({ intro, onSuccess }: LoginFormProps) {
  const t = useT();
  const auth = useAuth();
  const formRef = useRef<HTMLFormElement>(null);
  const [username, setUsername] = useState(() => readStoredUsername());
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<{ username?: string; password?: string }>({});
  const [failure, setFailure] = useState<Notice | null>(null);
  const login = trpc.auth.login.useMutation();
  const hint = auth.status?.login_hint ?? null;

  async function submit(event: FormEvent) {
    event.preventDefault();
    const problems = {
      username: username.trim() ? undefined : t('usernameRequired'),
      password: password ? undefined : t('passwordRequired'),
    };
    setErrors(problems);
    if (problems.username || problems.password) {
      focusFirstInvalid(formRef.current);
      return;
    }
    setFailure(null);
    try {
      await login.mutateAsync({ username: username.trim(), password });
    } catch (error) {
      const text = isNetworkError(error) ? t('loginFailed') : describeError(error, t).text;
      setFailure({ text, success: false });
      setPassword('');
      return;
    }
    try {
      localStorage.setItem(USERNAME_KEY, username.trim().toLowerCase());
    } catch {
      // storage unavailable: the username is only a convenience
    }
    setPassword('');
    await auth.refresh();
    onSuccess();
  }

  return (
    <form ref={formRef} className="admin-login-form" onSubmit={submit} noValidate>
      <Banner notice={failure ?? intro ?? null} />
      <Field label={t('username')} error={errors.username}>
        <input
          name="username"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          required
          value={username}
          onChange={(event) => setUsername(event.target.value)}
        />
      </Field>
      <Field label={t('password')} error={errors.password}>
        <input
          name="password"
          type="password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(event) => setPassword(event.target.value)}
        />
      </Field>
      <button type="submit" className="admin-button admin-button-primary" disabled={login.isPending}>
        {login.isPending ? t('loggingIn') : t('login')}
      </button>
      {hint && (
        <div className="admin-login-hint" data-testid="login-hint">
          <p>{t('loginHintUsername', { username: hint.username })}</p>
          <p>
            {t('loginHintPasswordFile')} <code>{hint.password_file}</code>
          </p>
        </div>
      )}
      <p>
        <Link href="/">{t('backToHome')}</Link>
      </p>
    </form>
  );
}

function readStoredUsername(): string {
  try {
    return localStorage.getItem(USERNAME_KEY) ?? '';
  } catch {
    return '';
  }
}
