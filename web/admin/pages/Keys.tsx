// Site keys: the keys other sites use to show the locator or read the places, each with the sites
// allowed to use it, its requests per day (and its use over the last 30 days), and the snippet to
// paste, filled in. Adding, editing and deleting a key.
import { useRef, useState, type FormEvent } from 'react';
import { describeError, isAuthProblem } from '../errors';
import { notice, useT, type Notice } from '../i18n';
import { trpc } from '../trpc';
import {
  Banner,
  Field,
  focusFirstInvalid,
  PageTitle,
  RowButton,
  useConfirm,
  useFailureNotice,
  useFormatDate,
} from '../ui';
import { VisitsChart } from './VisitsChart';

interface KeyForm {
  name: string;
  /** one origin per line */
  origins: string;
  daily_limit: string;
}

const EMPTY: KeyForm = { name: '', origins: '', daily_limit: '10000' };
type Errors = Partial<Record<keyof KeyForm, string>>;

/** What the browser sends as `Origin`: scheme, host and port. */
function originOf(line: string): string | null {
  try {
    const url = new URL(line);
    if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.pathname !== '/' || url.search || url.hash)
      return null;
    return url.origin;
  } catch {
    return null;
  }
}

/** The script tag a site pastes, for this key. */
export function keySnippet(key: string, site = window.location.origin): string {
  return `<script src="${site}/embed.js" data-key="${key}" data-categories="pharmacy,atm" async></script>`;
}

export function Keys() {
  const t = useT();
  const formatDate = useFormatDate();
  const utils = trpc.useUtils();
  const { confirm, dialog } = useConfirm();
  const keys = trpc.keys.list.useQuery();
  const usage = trpc.keys.usage.useQuery();
  const create = trpc.keys.create.useMutation();
  const update = trpc.keys.update.useMutation();
  const remove = trpc.keys.delete.useMutation();
  const [banner, setBanner] = useState<Notice | null>(null);
  const fail = useFailureNotice(setBanner);
  const formRef = useRef<HTMLFormElement>(null);
  const [form, setForm] = useState<KeyForm>(EMPTY);
  const [editingId, setEditingId] = useState<number | null>(null);
  const [errors, setErrors] = useState<Errors>({});
  const [copied, setCopied] = useState<number | null>(null);
  const set = (field: keyof KeyForm) => (event: { target: { value: string } }) =>
    setForm((f) => ({ ...f, [field]: event.target.value }));

  function validate(): { name: string; origins: string[]; daily_limit: number } | null {
    const lines = form.origins
      .split(/[\s,]+/)
      .map((line) => line.trim())
      .filter(Boolean);
    const origins = lines.map(originOf);
    const limit = Number(form.daily_limit);
    const problems: Errors = {
      name: form.name.trim() ? undefined : t('fieldRequired'),
      origins: origins.every(Boolean) ? undefined : t('keyOriginsInvalid'),
      daily_limit: Number.isInteger(limit) && limit >= 1 && limit <= 100_000_000 ? undefined : t('keyLimitInvalid'),
    };
    setErrors(problems);
    if (problems.name || problems.origins || problems.daily_limit) {
      focusFirstInvalid(formRef.current);
      return null;
    }
    return { name: form.name.trim(), origins: origins as string[], daily_limit: limit };
  }

  async function save(event: FormEvent) {
    event.preventDefault();
    const input = validate();
    if (!input) return;
    try {
      if (editingId === null) await create.mutateAsync(input);
      else await update.mutateAsync({ id: editingId, ...input });
    } catch (error) {
      if (isAuthProblem(error)) return;
      const described = describeError(error, t);
      const field = described.field as keyof KeyForm | undefined;
      if (field && field in EMPTY) {
        setErrors({ [field]: described.text });
        focusFirstInvalid(formRef.current);
      }
      setBanner({ text: described.text, success: false });
      return;
    }
    setBanner(notice(t, editingId === null ? 'keyCreated' : 'keySaved'));
    cancelEdit();
    await Promise.all([utils.keys.list.invalidate(), utils.keys.usage.invalidate()]);
  }

  function startEdit(key: { id: number; name: string; origins: string[]; daily_limit: number }) {
    setForm({ name: key.name, origins: key.origins.join('\n'), daily_limit: String(key.daily_limit) });
    setEditingId(key.id);
    setErrors({});
    formRef.current?.querySelector<HTMLInputElement>('input')?.focus();
  }

  function cancelEdit() {
    setForm(EMPTY);
    setEditingId(null);
    setErrors({});
  }

  async function deleteKey(key: { id: number; name: string }) {
    if (!(await confirm(t('confirmDeleteKey', { name: key.name }), t('delete')))) return;
    try {
      await remove.mutateAsync({ id: key.id });
      setBanner(notice(t, 'keyDeleted'));
      if (editingId === key.id) cancelEdit();
    } catch (error) {
      fail(error);
    }
    await Promise.all([utils.keys.list.invalidate(), utils.keys.usage.invalidate()]);
  }

  async function copy(id: number, text: string) {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(id);
    } catch (error) {
      fail(error);
    }
  }

  return (
    <section className="admin-page">
      <PageTitle>{t('navKeys')}</PageTitle>
      <Banner notice={banner} onDismiss={() => setBanner(null)} />
      <p className="admin-muted">{t('keysIntro')}</p>

      {keys.isPending && <p role="status">{t('loading')}</p>}
      {keys.isError && !isAuthProblem(keys.error) && <p className="admin-error-text">{t('errorLoading')}</p>}
      {keys.data?.length === 0 && <p>{t('noKeys')}</p>}
      {keys.data?.map((key) => {
        const perDay = usage.data?.keys.find((k) => k.id === key.id)?.counts;
        const snippet = keySnippet(key.key);
        return (
          <section key={key.id} className="admin-panel" aria-labelledby={`key-${key.id}`} data-testid="site-key">
            <h2 id={`key-${key.id}`}>{key.name}</h2>
            <dl className="admin-key-facts">
              <dt>{t('keyValue')}</dt>
              <dd>
                <code>{key.key}</code>
              </dd>
              <dt>{t('keyOrigins')}</dt>
              <dd>{key.origins.length ? key.origins.join(', ') : '—'}</dd>
              <dt>{t('keyDailyLimit')}</dt>
              <dd>{t('keyUsedToday', { used: key.used_today, limit: key.daily_limit })}</dd>
              <dt>{t('createdAt')}</dt>
              <dd>{formatDate(key.created_at)}</dd>
            </dl>
            <h3>{t('keySnippet')}</h3>
            <pre className="admin-snippet" data-testid="key-snippet">
              <code>{snippet}</code>
            </pre>
            <p className="admin-actions">
              <button
                type="button"
                className="admin-button admin-button-small"
                onClick={() => void copy(key.id, snippet)}
              >
                {t('copySnippet')}
              </button>
              <span role="status">{copied === key.id ? t('snippetCopied') : ''}</span>
            </p>
            {perDay && usage.data && (
              <>
                <h3>{t('requestsPerDay')}</h3>
                <VisitsChart kind="requests" days={usage.data.days.map((day, i) => ({ day, count: perDay[i] }))} />
              </>
            )}
            <p className="admin-actions">
              <RowButton action={t('edit')} name={key.name} onClick={() => startEdit(key)} />
              <RowButton action={t('delete')} name={key.name} danger onClick={() => void deleteKey(key)} />
            </p>
          </section>
        );
      })}

      <section className="admin-panel" aria-labelledby="key-form-title">
        <h2 id="key-form-title">{editingId === null ? t('newKey') : t('editKey')}</h2>
        <form ref={formRef} className="admin-form" onSubmit={save} noValidate data-testid="key-form">
          <Field label={t('keyName')} error={errors.name}>
            <input required maxLength={100} value={form.name} onChange={set('name')} />
          </Field>
          <Field label={t('keyOrigins')} hint={t('keyOriginsHint')} error={errors.origins}>
            <textarea rows={3} value={form.origins} onChange={set('origins')} spellCheck={false} />
          </Field>
          <Field label={t('keyDailyLimit')} hint={t('keyDailyLimitHint')} error={errors.daily_limit}>
            <input
              type="number"
              inputMode="numeric"
              min={1}
              max={100_000_000}
              step={1}
              required
              value={form.daily_limit}
              onChange={set('daily_limit')}
            />
          </Field>
          <div className="admin-actions">
            <button
              type="submit"
              className="admin-button admin-button-primary"
              disabled={create.isPending || update.isPending}
            >
              {create.isPending || update.isPending ? t('saving') : editingId === null ? t('createKey') : t('saveKey')}
            </button>
            {editingId !== null && (
              <button type="button" className="admin-button" onClick={cancelEdit}>
                {t('cancel')}
              </button>
            )}
          </div>
        </form>
      </section>
      {dialog}
    </section>
  );
}
