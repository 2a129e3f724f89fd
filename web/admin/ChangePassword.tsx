// Choosing a new password: forced at the first login on a generated password (nothing else of
// the admin opens before), and available from the sidebar at any time.
import { useRef, useState, type FormEvent } from 'react';
import { useLocation } from 'wouter';
import { useAuth } from '../lib/auth';
import { describeError, isAuthProblem } from './errors';
import { notice, useT, type Notice } from './i18n';
import { useLogout } from './Shell';
import { trpc } from './trpc';
import { Banner, Field, focusFirstInvalid, PageTitle } from './ui';

export const PASSWORD_MIN = 12;
export const PASSWORD_MAX = 128;

type Fields = 'current_password' | 'new_password' | 'confirm_password';

export function ChangePassword({ forced }: { forced: boolean }) {
  const t = useT();
  const auth = useAuth();
  const [, navigate] = useLocation();
  const formRef = useRef<HTMLFormElement>(null);
  const [values, setValues] = useState<Record<Fields, string>>({
    current_password: '',
    new_password: '',
    confirm_password: '',
  });
  const [errors, setErrors] = useState<Partial<Record<Fields, string>>>({});
  const [banner, setBanner] = useState<Notice | null>(null);
  const change = trpc.auth.changePassword.useMutation();
  const logout = useLogout();

  const set = (field: Fields) => (event: { target: { value: string } }) =>
    setValues((v) => ({ ...v, [field]: event.target.value }));

  async function submit(event: FormEvent) {
    event.preventDefault();
    const problems: Partial<Record<Fields, string>> = {};
    if (!values.current_password) problems.current_password = t('fieldRequired');
    if (values.new_password.length < PASSWORD_MIN) problems.new_password = t('passwordTooShort');
    else if (values.new_password.length > PASSWORD_MAX) problems.new_password = t('passwordTooLong');
    else if (values.new_password === values.current_password) problems.new_password = t('passwordMustDiffer');
    if (values.confirm_password !== values.new_password) problems.confirm_password = t('passwordsDoNotMatch');
    setErrors(problems);
    if (Object.keys(problems).length) {
      focusFirstInvalid(formRef.current);
      return;
    }
    try {
      await change.mutateAsync({ current_password: values.current_password, new_password: values.new_password });
    } catch (error) {
      if (isAuthProblem(error)) return;
      const described = describeError(error, t);
      if (described.field === 'current_password' || described.field === 'new_password') {
        setErrors({ [described.field]: described.text });
        focusFirstInvalid(formRef.current);
      }
      setBanner({ text: described.text, success: false });
      return;
    }
    setValues({ current_password: '', new_password: '', confirm_password: '' });
    setBanner(notice(t, 'passwordChanged'));
    await auth.refresh();
    if (forced) navigate('/admin/dashboard');
  }

  return (
    <section className="admin-page admin-narrow">
      <PageTitle>{t('changePassword')}</PageTitle>
      {forced && <p className="admin-intro">{t('mustChangePassword')}</p>}
      <Banner notice={banner} />
      <form ref={formRef} onSubmit={submit} noValidate className="admin-form">
        <Field label={t('currentPassword')} error={errors.current_password}>
          <input
            type="password"
            autoComplete="current-password"
            value={values.current_password}
            onChange={set('current_password')}
          />
        </Field>
        <Field label={t('newPassword')} hint={t('passwordRules')} error={errors.new_password}>
          <input
            type="password"
            autoComplete="new-password"
            value={values.new_password}
            onChange={set('new_password')}
          />
        </Field>
        <Field label={t('confirmPassword')} error={errors.confirm_password}>
          <input
            type="password"
            autoComplete="new-password"
            value={values.confirm_password}
            onChange={set('confirm_password')}
          />
        </Field>
        <button type="submit" className="admin-button admin-button-primary" disabled={change.isPending}>
          {change.isPending ? t('saving') : t('changePassword')}
        </button>
      </form>
      {forced && (
        <button type="button" className="admin-button admin-self-start" onClick={() => void logout()}>
          {t('logout')}
        </button>
      )}
    </section>
  );
}
