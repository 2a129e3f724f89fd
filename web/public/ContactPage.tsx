// /contact: the message form (checked in the browser first, then by the server), the business
// hours and the reply time.
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useT, type TextKey } from '../i18n';
import { formatTime, weekdayName } from '../lib/format';
import { useLanguage } from '../lib/i18n';
import { ApiError, postJson } from '../lib/rest';
import { useSettings } from '../lib/settings';
import { StatusBanner } from './StatusBanner';

type Field = 'name' | 'email' | 'subject' | 'body';
const FIELDS: Field[] = ['name', 'email', 'subject', 'body'];
const EMPTY: Record<Field, string> = { name: '', email: '', subject: '', body: '' };
/** The server's limits (src/procedures/messages.ts), so the browser stops what it would refuse. */
const MAX_LENGTH: Record<Field, number> = { name: 100, email: 254, subject: 200, body: 5000 };
const LABEL: Record<Field, TextKey> = {
  name: 'contact.name',
  email: 'contact.email',
  subject: 'contact.subject',
  body: 'contact.message',
};
const REQUIRED: Record<Field, TextKey> = {
  name: 'contact.nameRequired',
  email: 'contact.emailRequired',
  subject: 'contact.subjectRequired',
  body: 'contact.messageRequired',
};

type FieldErrors = Partial<Record<Field, TextKey>>;

/** The browser's own checks (required, email format, length), in the site's language. */
function browserErrors(form: HTMLFormElement): FieldErrors {
  const errors: FieldErrors = {};
  for (const field of FIELDS) {
    const input = form.elements.namedItem(field) as HTMLInputElement | HTMLTextAreaElement | null;
    if (!input || input.validity.valid) continue;
    if (input.validity.valueMissing || !input.value.trim()) errors[field] = REQUIRED[field];
    else if (input.validity.typeMismatch) errors[field] = 'contact.emailInvalid';
    else errors[field] = 'contact.tooLong';
  }
  // Blank text passes `required`; the server would refuse it.
  for (const field of FIELDS) {
    const input = form.elements.namedItem(field) as HTMLInputElement | null;
    if (!errors[field] && input && !input.value.trim()) errors[field] = REQUIRED[field];
  }
  return errors;
}

/** The server names the field first: "email: must be a valid email address". */
function serverFieldError(message: string): FieldErrors | null {
  const match = /^(name|email|subject|body)\s*:\s*(.*)$/i.exec(message);
  if (!match) return null;
  const field = match[1].toLowerCase() as Field;
  const reason = match[2];
  if (/required/i.test(reason)) return { [field]: REQUIRED[field] };
  if (/at most|too long/i.test(reason)) return { [field]: 'contact.tooLong' };
  return { [field]: field === 'email' ? 'contact.emailInvalid' : REQUIRED[field] };
}

type Banner = { key: TextKey; detail?: string } | null;

export function ContactPage() {
  const t = useT();
  const { lang } = useLanguage();
  const { settings } = useSettings();
  const [values, setValues] = useState(EMPTY);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [banner, setBanner] = useState<Banner>(null);
  const [sending, setSending] = useState(false);
  const form = useRef<HTMLFormElement>(null);
  const bannerRef = useRef<HTMLDivElement>(null);
  const focusFirstError = useRef(false);

  useEffect(() => {
    if (!focusFirstError.current) return;
    focusFirstError.current = false;
    const first = FIELDS.find((field) => errors[field]);
    if (first) (form.current?.elements.namedItem(first) as HTMLElement | null)?.focus();
    else bannerRef.current?.focus();
  }, [errors, banner]);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (sending) return;
    const found = browserErrors(event.currentTarget);
    setErrors(found);
    focusFirstError.current = true;
    if (Object.keys(found).length) {
      setBanner({ key: 'contact.fixErrors' });
      return;
    }
    setSending(true);
    setBanner(null);
    try {
      await postJson<{ success: boolean; message?: string }>('/api/contact', {
        name: values.name.trim(),
        email: values.email.trim(),
        subject: values.subject.trim(),
        body: values.body.trim(),
      });
      setValues(EMPTY);
      setErrors({});
      setBanner({ key: 'contact.success' });
    } catch (error) {
      console.warn('Contact message not sent', error);
      const serverMessage = error instanceof ApiError ? error.serverMessage : null;
      const fieldErrors = serverMessage ? serverFieldError(serverMessage) : null;
      if (error instanceof ApiError && error.status === 429) setBanner({ key: 'contact.tooMany' });
      else if (fieldErrors) {
        setErrors(fieldErrors);
        setBanner({ key: 'contact.error' });
      } else setBanner({ key: 'contact.error', detail: serverMessage ?? undefined });
    } finally {
      focusFirstError.current = true;
      setSending(false);
    }
  };

  const hours = [
    { days: t('contact.dayRange', { from: weekdayName(0, lang), to: weekdayName(4, lang) }), open: [9, 18] },
    { days: weekdayName(5, lang), open: [10, 16] },
    { days: weekdayName(6, lang), open: null },
  ];

  return (
    <div className="page contact-page">
      <div className="container">
        <header className="page-header">
          <h1 className="page-title">{t('contact.heading')}</h1>
          <p className="section-intro">{t('contact.intro')}</p>
        </header>
        <div className="contact-layout">
          <section className="contact-form-card" aria-labelledby="contact-form-heading">
            <h2 id="contact-form-heading" className="section-subheading">
              {t('contact.formHeading')}
            </h2>
            {banner ? <StatusBanner ref={bannerRef} messageKey={banner.key} detail={banner.detail} /> : null}
            <form ref={form} className="contact-form" noValidate onSubmit={(event) => void onSubmit(event)}>
              {FIELDS.map((field) => {
                const id = `contact-${field}`;
                const errorId = `${id}-error`;
                const common = {
                  id,
                  name: field,
                  required: true,
                  maxLength: MAX_LENGTH[field],
                  value: values[field],
                  'aria-invalid': errors[field] ? true : undefined,
                  'aria-describedby': errors[field] ? errorId : undefined,
                  onChange: (event: { target: { value: string } }) => {
                    const value = event.target.value;
                    setValues((current) => ({ ...current, [field]: value }));
                    if (errors[field]) setErrors((current) => ({ ...current, [field]: undefined }));
                  },
                };
                return (
                  <div className="field" key={field}>
                    <label htmlFor={id}>
                      {t(LABEL[field])}{' '}
                      <span className="field__required" aria-hidden="true">
                        *
                      </span>
                      <span className="visually-hidden"> ({t('contact.required')})</span>
                    </label>
                    {field === 'body' ? (
                      <textarea {...common} rows={6} />
                    ) : (
                      <input
                        {...common}
                        type={field === 'email' ? 'email' : 'text'}
                        autoComplete={field === 'name' ? 'name' : field === 'email' ? 'email' : 'off'}
                      />
                    )}
                    {errors[field] ? (
                      <p id={errorId} className="field__error">
                        {t(errors[field]!)}
                      </p>
                    ) : null}
                  </div>
                );
              })}
              <button type="submit" className="button button--primary button--large" disabled={sending}>
                {sending ? t('contact.sending') : t('contact.send')}
              </button>
            </form>
          </section>

          <aside className="contact-info" aria-labelledby="contact-info-heading">
            <h2 id="contact-info-heading" className="section-subheading">
              {t('contact.infoHeading')}
            </h2>
            {settings.contactEmail ? (
              <p>
                <span className="contact-info__label">{t('contact.emailUs')}: </span>
                <a href={`mailto:${settings.contactEmail}`}>{settings.contactEmail}</a>
              </p>
            ) : null}
            <h3 className="contact-info__subheading">{t('contact.hoursHeading')}</h3>
            <dl className="hours">
              {hours.map((row) => (
                <div className="hours__row" key={row.days}>
                  <dt>{row.days}</dt>
                  <dd>
                    {row.open
                      ? t('contact.timeRange', {
                          from: formatTime(row.open[0], 0, lang),
                          to: formatTime(row.open[1], 0, lang),
                        })
                      : t('contact.closed')}
                  </dd>
                </div>
              ))}
            </dl>
            <p className="contact-info__reply">{t('contact.replyTime')}</p>
          </aside>
        </div>
      </div>
    </div>
  );
}
