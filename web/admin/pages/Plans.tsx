// Plans: the list, one form that adds or (after Edit) updates a plan, and deletion after a
// confirmation. The description is kept as two lists, features and languages.
import { useRef, useState, type FormEvent } from 'react';
import { describeError, isAuthProblem } from '../errors';
import { notice, useT, type Notice, type Translate } from '../i18n';
import { trpc, type RouterOutputs } from '../trpc';
import { usePublicRefresh } from '../usePublicRefresh';
import { Banner, Field, focusFirstInvalid, PageTitle, RowButton, useConfirm, useFailureNotice } from '../ui';

type Plan = RouterOutputs['plans']['list'][number];
type PlanType = Plan['type'];
const PLAN_TYPES: PlanType[] = ['basic', 'pro', 'premium'];

interface PlanForm {
  name: string;
  price: string;
  type: PlanType;
  features: string;
  languages: string;
  link: string;
}
type FormErrors = Partial<Record<keyof PlanForm, string>>;

const EMPTY: PlanForm = { name: '', price: '', type: 'basic', features: '', languages: '', link: '' };

const lines = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);

/** A stored description as features and languages (a plain one becomes its lines of features). */
export function descriptionLists(description: Plan['description']): { features: string[]; languages: string[] } {
  if (typeof description !== 'string') return description;
  try {
    const parsed = JSON.parse(description) as { features?: unknown; languages?: unknown };
    if (Array.isArray(parsed.features) && Array.isArray(parsed.languages)) {
      return { features: parsed.features.map(String), languages: parsed.languages.map(String) };
    }
  } catch {
    // a plain text description
  }
  return { features: lines(description), languages: [] };
}

export const isHttpUrl = (value: string) => {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
};

function validate(form: PlanForm, t: Translate): FormErrors {
  const errors: FormErrors = {};
  if (!form.name.trim()) errors.name = t('fieldRequired');
  const price = Number(form.price);
  if (!form.price.trim()) errors.price = t('fieldRequired');
  else if (!Number.isFinite(price) || price < 0 || price > 1_000_000) errors.price = t('priceInvalid');
  else if (Math.abs(Math.round(price * 100) - price * 100) > 1e-6) errors.price = t('priceDecimals');
  if (lines(form.features).length === 0) errors.features = t('featuresRequired');
  if (!form.link.trim()) errors.link = t('fieldRequired');
  else if (!isHttpUrl(form.link.trim())) errors.link = t('invalidUrl');
  return errors;
}

export function Plans() {
  const t = useT();
  const utils = trpc.useUtils();
  const refreshPublic = usePublicRefresh();
  const { confirm, dialog } = useConfirm();
  const formRef = useRef<HTMLFormElement>(null);
  const plans = trpc.plans.list.useQuery();
  const create = trpc.plans.create.useMutation();
  const update = trpc.plans.update.useMutation();
  const remove = trpc.plans.delete.useMutation();
  const [form, setForm] = useState<PlanForm>(EMPTY);
  const [editingId, setEditingId] = useState<number | null>(null);
  const [errors, setErrors] = useState<FormErrors>({});
  const [banner, setBanner] = useState<Notice | null>(null);
  const fail = useFailureNotice(setBanner);

  const set = (field: keyof PlanForm) => (event: { target: { value: string } }) =>
    setForm((f) => ({ ...f, [field]: event.target.value }));

  function startEdit(plan: Plan) {
    const { features, languages } = descriptionLists(plan.description);
    setForm({
      name: plan.name,
      price: plan.price.toFixed(2),
      type: plan.type,
      features: features.join('\n'),
      languages: languages.join('\n'),
      link: plan.link,
    });
    setEditingId(plan.id);
    setErrors({});
    formRef.current?.querySelector<HTMLInputElement>('input')?.focus();
  }

  function cancelEdit() {
    setForm(EMPTY);
    setEditingId(null);
    setErrors({});
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    const problems = validate(form, t);
    setErrors(problems);
    if (Object.keys(problems).length) {
      focusFirstInvalid(formRef.current);
      return;
    }
    const input = {
      name: form.name.trim(),
      price: Number(form.price),
      type: form.type,
      description: { features: lines(form.features), languages: lines(form.languages) },
      link: form.link.trim(),
    };
    try {
      if (editingId === null) await create.mutateAsync(input);
      else await update.mutateAsync({ id: editingId, ...input });
    } catch (error) {
      if (isAuthProblem(error)) return;
      const described = describeError(error, t);
      const field = described.field === 'description' ? 'features' : described.field;
      if (field && field in EMPTY) {
        setErrors({ [field]: described.text });
        focusFirstInvalid(formRef.current);
      }
      setBanner({ text: described.text, success: false });
      return;
    }
    setBanner(notice(t, editingId === null ? 'planAdded' : 'planUpdated'));
    cancelEdit();
    await utils.plans.list.invalidate();
    refreshPublic();
  }

  async function deletePlan(plan: Plan) {
    if (!(await confirm(t('confirmDeleteItem'), t('delete')))) return;
    try {
      await remove.mutateAsync({ id: plan.id });
      setBanner(notice(t, 'planDeleted'));
      if (editingId === plan.id) cancelEdit();
    } catch (error) {
      fail(error);
    }
    await utils.plans.list.invalidate();
    refreshPublic();
  }

  const editing = editingId !== null;
  const saving = create.isPending || update.isPending;

  return (
    <section className="admin-page">
      <PageTitle>{t('navPlans')}</PageTitle>
      <Banner notice={banner} onDismiss={() => setBanner(null)} />

      <section className="admin-panel" aria-labelledby="plan-form-title">
        <h2 id="plan-form-title">{editing ? t('editPlan') : t('addPlan')}</h2>
        <form ref={formRef} className="admin-form" onSubmit={submit} noValidate data-testid="plan-form">
          <div className="admin-grid-2">
            <Field label={t('planName')} error={errors.name}>
              <input required maxLength={100} value={form.name} onChange={set('name')} />
            </Field>
            <Field label={t('planPrice')} hint={t('planPriceHint')} error={errors.price}>
              <input
                type="number"
                inputMode="decimal"
                step="0.01"
                min="0"
                required
                value={form.price}
                onChange={set('price')}
              />
            </Field>
            <Field label={t('planType')} error={errors.type}>
              <select value={form.type} onChange={set('type')}>
                {PLAN_TYPES.map((type) => (
                  <option key={type} value={type}>
                    {t(`planType_${type}`)}
                  </option>
                ))}
              </select>
            </Field>
            <Field label={t('planLink')} hint={t('urlHint')} error={errors.link}>
              <input type="url" inputMode="url" required value={form.link} onChange={set('link')} />
            </Field>
            <Field label={t('planFeatures')} hint={t('onePerLine')} error={errors.features}>
              <textarea rows={5} required value={form.features} onChange={set('features')} />
            </Field>
            <Field label={t('planLanguages')} hint={t('onePerLine')} error={errors.languages}>
              <textarea rows={5} value={form.languages} onChange={set('languages')} />
            </Field>
          </div>
          <div className="admin-actions">
            <button type="submit" className="admin-button admin-button-primary" disabled={saving}>
              {saving ? t('saving') : editing ? t('updatePlan') : t('addPlan')}
            </button>
            {editing && (
              <button type="button" className="admin-button" onClick={cancelEdit}>
                {t('cancelEdit')}
              </button>
            )}
          </div>
        </form>
      </section>

      <section className="admin-panel" aria-labelledby="plans-list">
        <h2 id="plans-list">{t('plansList')}</h2>
        {plans.isPending && <p role="status">{t('loading')}</p>}
        {plans.data?.length === 0 && <p>{t('noPlans')}</p>}
        {!!plans.data?.length && (
          <table className="admin-table admin-table-stack" data-testid="plans-table">
            <thead>
              <tr>
                <th scope="col">{t('planName')}</th>
                <th scope="col">{t('planPrice')}</th>
                <th scope="col">{t('planType')}</th>
                <th scope="col">{t('planFeatures')}</th>
                <th scope="col">{t('actions')}</th>
              </tr>
            </thead>
            <tbody>
              {plans.data.map((plan) => {
                const { features, languages } = descriptionLists(plan.description);
                return (
                  <tr key={plan.id}>
                    <td data-label={t('planName')}>
                      <a href={plan.link} target="_blank" rel="noopener noreferrer">
                        {plan.name}
                      </a>
                    </td>
                    <td data-label={t('planPrice')}>{t('pricePerMonth', { price: plan.price.toFixed(2) })}</td>
                    <td data-label={t('planType')}>{t(`planType_${plan.type}`)}</td>
                    <td data-label={t('planFeatures')}>
                      {features.join(', ')}
                      {languages.length > 0 && (
                        <span className="admin-muted">
                          {' '}
                          ({t('planLanguages')}: {languages.join(', ')})
                        </span>
                      )}
                    </td>
                    <td data-label={t('actions')}>
                      <div className="admin-row-actions">
                        <RowButton action={t('edit')} name={plan.name} onClick={() => startEdit(plan)} />
                        <RowButton action={t('delete')} name={plan.name} danger onClick={() => void deletePlan(plan)} />
                      </div>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        )}
      </section>
      {dialog}
    </section>
  );
}
