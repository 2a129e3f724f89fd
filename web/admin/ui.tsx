// Small building blocks shared by the admin pages: banners, labelled fields, modal dialogs,
// confirmations, page titles, failure notices and row buttons.
import {
  cloneElement,
  useCallback,
  useEffect,
  useId,
  useRef,
  useState,
  type ReactElement,
  type ReactNode,
} from 'react';
import { useLanguage } from '../lib/i18n';
import { describeError, isAuthProblem } from './errors';
import { useT, type Notice } from './i18n';

/** Status banner: green when successful, red otherwise; announced to screen readers. */
export function Banner({ notice, onDismiss }: { notice: Notice | null; onDismiss?: () => void }) {
  const t = useT();
  return (
    <div className="admin-banner-slot" aria-live="polite">
      {notice && (
        <p
          className={`admin-banner ${notice.success ? 'admin-banner-success' : 'admin-banner-error'}`}
          data-testid="banner"
        >
          <span>{notice.text}</span>
          {onDismiss && (
            <button type="button" className="admin-banner-close" onClick={onDismiss} aria-label={t('dismiss')}>
              ×
            </button>
          )}
        </p>
      )}
    </div>
  );
}

interface FieldProps {
  label: string;
  /** a short rule shown under the control */
  hint?: string;
  error?: string;
  children: ReactElement<Record<string, unknown>>;
  className?: string;
}

/** A label, its control, a hint and an error, tied together for assistive technology. */
export function Field({ label, hint, error, children, className }: FieldProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className={`admin-field ${className ?? ''}`}>
      <label htmlFor={id}>{label}</label>
      {cloneElement(children, { id, 'aria-describedby': describedBy, 'aria-invalid': error ? true : undefined })}
      {hint && (
        <small id={hintId} className="admin-hint">
          {hint}
        </small>
      )}
      {error && (
        <small id={errorId} className="admin-field-error">
          {error}
        </small>
      )}
    </div>
  );
}

/** Reports a failed action in the banner; a sign-in problem is left to the session dialog. */
export function useFailureNotice(show: (notice: Notice) => void): (error: unknown) => void {
  const t = useT();
  return (error) => {
    if (!isAuthProblem(error)) show({ text: describeError(error, t).text, success: false });
  };
}

/** Moves focus to the first field marked invalid, so a keyboard user lands on the problem. */
export function focusFirstInvalid(form: HTMLFormElement | null): void {
  requestAnimationFrame(() => form?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
}

interface DialogProps {
  open: boolean;
  title: string;
  onClose: () => void;
  children: ReactNode;
  className?: string;
}

/** A native modal <dialog>: it traps focus, closes on Escape and gives focus back on close. */
export function Dialog({ open, title, onClose, children, className }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog
      ref={ref}
      className={`admin-dialog ${className ?? ''}`}
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      {open && (
        <>
          <h2 id={titleId} className="admin-dialog-title">
            {title}
          </h2>
          {children}
        </>
      )}
    </dialog>
  );
}

/**
 * A confirmation in the admin's language: `await confirm(text)` is true when confirmed.
 * Render `dialog` somewhere in the page.
 */
export function useConfirm(): {
  confirm: (text: string, confirmLabel?: string) => Promise<boolean>;
  dialog: ReactNode;
} {
  const t = useT();
  const [pending, setPending] = useState<{ text: string; label: string; resolve: (ok: boolean) => void } | null>(null);
  const confirm = useCallback(
    (text: string, confirmLabel?: string) =>
      new Promise<boolean>((resolve) => setPending({ text, label: confirmLabel ?? t('confirm'), resolve })),
    [t],
  );
  const answer = (ok: boolean) => {
    pending?.resolve(ok);
    setPending(null);
  };
  const dialog = (
    <Dialog open={pending !== null} title={t('confirmTitle')} onClose={() => answer(false)} className="admin-confirm">
      <p>{pending?.text}</p>
      <div className="admin-actions">
        {/* Cancel first: it gets the focus, so Enter alone never destroys anything. */}
        <button type="button" className="admin-button" onClick={() => answer(false)}>
          {t('cancel')}
        </button>
        <button type="button" className="admin-button admin-button-danger" onClick={() => answer(true)}>
          {pending?.label}
        </button>
      </div>
    </Dialog>
  );
  return { confirm, dialog };
}

/** The page's h1; it takes the focus when the page opens so screen readers announce it. */
export function PageTitle({ children }: { children: string }) {
  const ref = useRef<HTMLHeadingElement>(null);
  const t = useT();
  useEffect(() => {
    document.title = `${children} · ${t('adminPanel')}`;
  }, [children, t]);
  useEffect(() => {
    ref.current?.focus({ preventScroll: true });
  }, []);
  return (
    <h1 ref={ref} tabIndex={-1} className="admin-page-title">
      {children}
    </h1>
  );
}

/** Date and time in the admin's language. */
export function useFormatDate(): (value: string | null | undefined, withTime?: boolean) => string {
  const { lang } = useLanguage();
  return useCallback(
    (value, withTime = true) => {
      if (!value) return '';
      const date = new Date(value);
      if (Number.isNaN(date.getTime())) return value;
      return new Intl.DateTimeFormat(
        lang,
        withTime ? { dateStyle: 'medium', timeStyle: 'short' } : { dateStyle: 'medium' },
      ).format(date);
    },
    [lang],
  );
}

export const isVideoUrl = (url: string) => /\.(mp4|webm|ogg|ogv)(\?|#|$)/i.test(url);

/** A thumbnail of an ad's image or video. */
export function MediaPreview({ url, alt }: { url: string; alt: string }) {
  const [broken, setBroken] = useState(false);
  if (broken) return <span className="admin-media-broken">{alt}</span>;
  if (isVideoUrl(url)) {
    return (
      <video
        className="admin-media"
        src={url}
        muted
        preload="metadata"
        aria-label={alt}
        onError={() => setBroken(true)}
      />
    );
  }
  return <img className="admin-media" src={url} alt={alt} loading="lazy" onError={() => setBroken(true)} />;
}

/** A small button of a table row or card: its text ("Edit") with the row's name for screen readers ("Edit Basic"). */
export function RowButton({
  action,
  name,
  danger,
  onClick,
}: {
  action: string;
  name: string;
  danger?: boolean;
  onClick: () => void;
}) {
  return (
    <button
      type="button"
      className={`admin-button admin-button-small${danger ? ' admin-button-danger' : ''}`}
      onClick={onClick}
    >
      {action}
      <span className="visually-hidden"> {name}</span>
    </button>
  );
}
