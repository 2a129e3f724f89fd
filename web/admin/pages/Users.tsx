// Admin users: the list with creation dates, adding one (with the server's rules shown), and
// deleting one after a confirmation that names it.
import { useRef, useState, type FormEvent } from 'react';
import { useAuth } from '../../lib/auth';
import { PASSWORD_MAX, PASSWORD_MIN } from '../ChangePassword';
import { CredentialFields, type Credentials } from '../LoginForm';
import { describeError, isAuthProblem } from '../errors';
import { notice, useT, type Notice } from '../i18n';
import { trpc } from '../trpc';
import { Banner, focusFirstInvalid, PageTitle, RowButton, useConfirm, useFailureNotice, useFormatDate } from '../ui';

const USERNAME_RULE = /^[a-z0-9._-]{3,32}$/;

export function Users() {
  const t = useT();
  const auth = useAuth();
  const formatDate = useFormatDate();
  const utils = trpc.useUtils();
  const { confirm, dialog } = useConfirm();
  const formRef = useRef<HTMLFormElement>(null);
  const users = trpc.users.list.useQuery();
  const create = trpc.users.create.useMutation();
  const remove = trpc.users.delete.useMutation();
  const [credentials, setCredentials] = useState<Credentials>({ username: '', password: '' });
  const [errors, setErrors] = useState<Partial<Credentials>>({});
  const [banner, setBanner] = useState<Notice | null>(null);
  const fail = useFailureNotice(setBanner);

  async function addUser(event: FormEvent) {
    event.preventDefault();
    const { username, password } = credentials;
    const name = username.trim().toLowerCase();
    const problems = {
      username: !name ? t('usernameRequired') : USERNAME_RULE.test(name) ? undefined : t('usernameRule'),
      password: !password
        ? t('passwordRequired')
        : password.length < PASSWORD_MIN
          ? t('passwordTooShort')
          : password.length > PASSWORD_MAX
            ? t('passwordTooLong')
            : undefined,
    };
    setErrors(problems);
    if (problems.username || problems.password) {
      focusFirstInvalid(formRef.current);
      return;
    }
    try {
      await create.mutateAsync({ username: name, password });
    } catch (error) {
      if (isAuthProblem(error)) return;
      const described = describeError(error, t);
      if (described.field === 'username' || described.field === 'password') {
        setErrors({ [described.field]: described.text });
        focusFirstInvalid(formRef.current);
      }
      setBanner({ text: described.text, success: false });
      return;
    }
    setCredentials({ username: '', password: '' });
    setBanner(notice(t, 'userAdded'));
    await utils.users.list.invalidate();
  }

  async function deleteUser(user: { id: number; username: string }) {
    if (!(await confirm(t('confirmDeleteUser', { username: user.username }), t('delete')))) return;
    try {
      await remove.mutateAsync({ id: user.id });
      setBanner(notice(t, 'userDeleted'));
    } catch (error) {
      fail(error);
    }
    await utils.users.list.invalidate();
  }

  return (
    <section className="admin-page">
      <PageTitle>{t('navUsers')}</PageTitle>
      <Banner notice={banner} onDismiss={() => setBanner(null)} />

      <section className="admin-panel" aria-labelledby="users-list">
        <h2 id="users-list">{t('adminUsers')}</h2>
        {users.isPending && <p role="status">{t('loading')}</p>}
        {users.isError && !isAuthProblem(users.error) && <p className="admin-error-text">{t('errorLoading')}</p>}
        {users.data && (
          <table className="admin-table admin-table-stack">
            <thead>
              <tr>
                <th scope="col">{t('username')}</th>
                <th scope="col">{t('createdAt')}</th>
                <th scope="col">{t('actions')}</th>
              </tr>
            </thead>
            <tbody>
              {users.data.map((user) => (
                <tr key={user.id}>
                  <td data-label={t('username')}>
                    {user.username}
                    {user.username === auth.status?.username && <span className="admin-badge"> {t('you')}</span>}
                  </td>
                  <td data-label={t('createdAt')}>{formatDate(user.created_at)}</td>
                  <td data-label={t('actions')}>
                    <RowButton action={t('delete')} name={user.username} danger onClick={() => void deleteUser(user)} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>

      <section className="admin-panel" aria-labelledby="add-user">
        <h2 id="add-user">{t('addUser')}</h2>
        <form ref={formRef} className="admin-form" onSubmit={addUser} noValidate>
          <CredentialFields creating values={credentials} errors={errors} onChange={setCredentials} />
          <button type="submit" className="admin-button admin-button-primary" disabled={create.isPending}>
            {create.isPending ? t('saving') : t('addUser')}
          </button>
        </form>
      </section>
      {dialog}
    </section>
  );
}
