// The admin sign-in form: on the /admin page, and again over the panel when a session expires.
import { useRef, useState, type Dispatch, type FormEvent, type SetStateAction } from 'react';
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
  const [credentials, setCredentials] = useState<Credentials>(() => ({ username: readStoredUsername(), password: '' }));
  const [errors, setErrors] = useState<Partial<Credentials>>({});
  const [failure, setFailure] = useState<Notice | null>(null);
  const login = trpc.auth.login.useMutation();
  const hint = auth.status?.login_hint ?? null;

  async function submit(event: FormEvent) {
    event.preventDefault();
    const { username, password } = credentials;
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
      setCredentials((c) => ({ ...c, password: '' }));
      return;
    }
    try {
      localStorage.setItem(USERNAME_KEY, username.trim().toLowerCase());
    } catch {
      // storage unavailable: the username is only a convenience
    }
    setCredentials((c) => ({ ...c, password: '' }));
    await auth.refresh();
    onSuccess();
  }

  return (
    <form ref={formRef} className="admin-login-form" onSubmit={submit} noValidate>
      <Banner notice={failure ?? intro ?? null} />
      <CredentialFields values={credentials} errors={errors} onChange={setCredentials} />
      <button type="submit" className="admin-button admin-button-primary" disabled={login.isPending}>
        {login.isPending ? t('loggingIn') : t('login')}
      </button>
      {hint && (
        <div className="admin-login-hint" data-testid="login-hint">
          <p>{t('loginHintUsername', { username: hint.username })}</p>
          {hint.password_source === 'file' ? (
            <p>
              {t('loginHintPasswordFile')} <code>{hint.password_file}</code>
            </p>
          ) : (
            <p>{t('loginHintPasswordEnv')}</p>
          )}
        </div>
      )}
      <p>
        <Link href="/">{t('backToHome')}</Link>
      </p>
    </form>
  );
}

export interface Credentials {
  username: string;
  password: string;
}

/** The username and password inputs: an admin's own to sign in, or a new admin's (`creating`, with the rules shown). */
export function CredentialFields({
  creating = false,
  values,
  errors,
  onChange,
}: {
  creating?: boolean;
  values: Credentials;
  errors: Partial<Credentials>;
  onChange: Dispatch<SetStateAction<Credentials>>;
}) {
  const t = useT();
  const set = (field: keyof Credentials) => (event: { target: { value: string } }) => {
    const value = event.target.value;
    onChange((v) => ({ ...v, [field]: value }));
  };
  return (
    <>
      <Field label={t('username')} hint={creating ? t('usernameRule') : undefined} error={errors.username}>
        <input
          name={creating ? 'new-username' : 'username'}
          autoComplete={creating ? 'off' : 'username'}
          autoCapitalize="none"
          spellCheck={false}
          required
          value={values.username}
          onChange={set('username')}
        />
      </Field>
      <Field label={t('password')} hint={creating ? t('passwordRules') : undefined} error={errors.password}>
        <input
          name={creating ? 'new-password' : 'password'}
          type="password"
          autoComplete={creating ? 'new-password' : 'current-password'}
          required
          value={values.password}
          onChange={set('password')}
        />
      </Field>
    </>
  );
}

function readStoredUsername(): string {
  try {
    return localStorage.getItem(USERNAME_KEY) ?? '';
  } catch {
    return '';
  }
}
