// Messages: the inbox and the open message; mark read/unread, reply through a webmail compose
// window (which marks an unread message read), open in the mail client, delete.
import { useEffect, useState } from 'react';
import { useSearch } from 'wouter';
import { isAuthProblem } from '../errors';
import { notice, useT, type Notice, type Translate } from '../i18n';
import { trpc, type RouterOutputs } from '../trpc';
import { Banner, Dialog, Field, PageTitle, useConfirm, useFailureNotice, useFormatDate } from '../ui';

type Message = RouterOutputs['messages']['list'][number];

export function replySubject(subject: string): string {
  return /^re:/i.test(subject.trim()) ? subject.trim() : `Re: ${subject.trim()}`;
}

/** The original, quoted line by line under a "On ..., ... wrote:" line. */
export function quotedBody(message: Message, t: Translate, formattedDate: string): string {
  const quoted = message.body
    .split(/\r?\n/)
    .map((line) => `> ${line}`)
    .join('\n');
  return `\n\n${t('quoteHeader', { date: formattedDate, name: message.name })}\n${quoted}`;
}

/** Gmail's compose window, prefilled (recipient, subject, body). */
export function webmailComposeUrl(to: string, subject: string, body: string): string {
  const params = new URLSearchParams({ view: 'cm', fs: '1', to, su: subject, body });
  return `https://mail.google.com/mail/?${params.toString()}`;
}

export function mailtoUrl(to: string, subject: string, body: string): string {
  const address = encodeURIComponent(to).replace(/%40/g, '@');
  return `mailto:${address}?subject=${encodeURIComponent(subject)}&body=${encodeURIComponent(body)}`;
}

export function Messages() {
  const t = useT();
  const formatDate = useFormatDate();
  const search = useSearch();
  const utils = trpc.useUtils();
  const { confirm, dialog } = useConfirm();
  const messages = trpc.messages.list.useQuery();
  const setStatus = trpc.messages.setStatus.useMutation();
  const remove = trpc.messages.delete.useMutation();
  const [selectedId, setSelectedId] = useState<number | null>(() => {
    const id = Number(new URLSearchParams(search).get('id'));
    return Number.isInteger(id) && id > 0 ? id : null;
  });
  const [banner, setBanner] = useState<Notice | null>(null);
  const fail = useFailureNotice(setBanner);
  const [replying, setReplying] = useState(false);

  // A failure to load shows an empty list.
  const list = messages.isError ? [] : (messages.data ?? []);
  const selected = list.find((message) => message.id === selectedId) ?? null;

  useEffect(() => {
    if (messages.isError && !isAuthProblem(messages.error)) console.warn('Messages failed to load', messages.error);
  }, [messages.isError, messages.error]);

  async function changeStatus(message: Message, status: 'read' | 'unread', announce = true) {
    try {
      await setStatus.mutateAsync({ id: message.id, status });
      if (announce) setBanner(notice(t, status === 'read' ? 'markedRead' : 'markedUnread'));
    } catch (error) {
      fail(error);
    }
    await utils.messages.list.invalidate();
  }

  async function deleteMessage(message: Message) {
    if (!(await confirm(t('confirmDeleteMessage'), t('delete')))) return;
    try {
      await remove.mutateAsync({ id: message.id });
      setBanner(notice(t, 'messageDeleted'));
      setSelectedId(null);
    } catch (error) {
      fail(error);
    }
    await utils.messages.list.invalidate();
  }

  const unreadCount = list.filter((message) => message.status === 'unread').length;

  return (
    <section className="admin-page">
      <PageTitle>{t('navMessages')}</PageTitle>
      <Banner notice={banner} onDismiss={() => setBanner(null)} />
      {messages.isPending && <p role="status">{t('loading')}</p>}
      <div className="admin-messages">
        <section className="admin-panel admin-message-list" aria-labelledby="inbox-title">
          <h2 id="inbox-title">
            {t('inbox')} <span className="admin-muted">({t('unreadCount', { count: unreadCount })})</span>
          </h2>
          {!messages.isPending && list.length === 0 && <p>{t('noMessages')}</p>}
          <ul data-testid="message-list">
            {list.map((message) => {
              const unread = message.status === 'unread';
              return (
                <li key={message.id}>
                  <button
                    type="button"
                    className={
                      `admin-message-item ${unread ? 'admin-unread' : ''} ` +
                      (message.id === selectedId ? 'admin-message-selected' : '')
                    }
                    aria-pressed={message.id === selectedId}
                    onClick={() => setSelectedId(message.id)}
                  >
                    <span className="admin-message-from">{message.name}</span>
                    <span className="admin-message-subject">{message.subject}</span>
                    <span className="admin-muted">{formatDate(message.date)}</span>
                    {unread && <span className="admin-badge admin-badge-unread">{t('unread')}</span>}
                  </button>
                </li>
              );
            })}
          </ul>
        </section>

        <section
          className="admin-panel admin-message-detail"
          aria-labelledby="message-detail-title"
          data-testid="message-detail"
        >
          {!selected ? (
            <>
              <h2 id="message-detail-title" className="visually-hidden">
                {t('messageDetail')}
              </h2>
              <p className="admin-muted">{t('selectMessage')}</p>
            </>
          ) : (
            <>
              <h2 id="message-detail-title">{selected.subject}</h2>
              <dl className="admin-message-meta">
                <dt>{t('from')}</dt>
                <dd>
                  {selected.name} &lt;{selected.email}&gt;
                </dd>
                <dt>{t('date')}</dt>
                <dd>{formatDate(selected.date)}</dd>
                <dt>{t('status')}</dt>
                <dd className={selected.status === 'unread' ? 'admin-unread' : undefined}>
                  {selected.status === 'unread' ? t('unread') : t('read')}
                </dd>
              </dl>
              <p className="admin-message-body">{selected.body}</p>
              <div className="admin-actions">
                <button
                  type="button"
                  className="admin-button"
                  onClick={() => void changeStatus(selected, selected.status === 'unread' ? 'read' : 'unread')}
                  disabled={setStatus.isPending}
                >
                  {selected.status === 'unread' ? t('markAsRead') : t('markAsUnread')}
                </button>
                <button type="button" className="admin-button admin-button-primary" onClick={() => setReplying(true)}>
                  {t('reply')}
                </button>
                <a
                  className="admin-button"
                  href={mailtoUrl(
                    selected.email,
                    replySubject(selected.subject),
                    quotedBody(selected, t, formatDate(selected.date)),
                  )}
                >
                  {t('openInMailClient')}
                </a>
                <button
                  type="button"
                  className="admin-button admin-button-danger"
                  onClick={() => void deleteMessage(selected)}
                >
                  {t('delete')}
                </button>
              </div>
            </>
          )}
        </section>
      </div>
      {selected && (
        <ReplyDialog
          open={replying}
          message={selected}
          onClose={() => setReplying(false)}
          onSent={() => {
            setReplying(false);
            setBanner(notice(t, 'replyOpened'));
            if (selected.status === 'unread') void changeStatus(selected, 'read', false);
          }}
        />
      )}
      {dialog}
    </section>
  );
}

function ReplyDialog({
  open,
  message,
  onClose,
  onSent,
}: {
  open: boolean;
  message: Message;
  onClose: () => void;
  onSent: () => void;
}) {
  const t = useT();
  const formatDate = useFormatDate();
  const [subject, setSubject] = useState('');
  const [body, setBody] = useState('');

  // Each opening starts from the message being answered.
  useEffect(() => {
    if (!open) return;
    setSubject(replySubject(message.subject));
    setBody(quotedBody(message, t, formatDate(message.date)));
  }, [open, message, t, formatDate]);

  function openWebmail() {
    window.open(webmailComposeUrl(message.email, subject, body), '_blank', 'noopener,noreferrer');
    onSent();
  }

  return (
    <Dialog open={open} title={t('replyTo', { name: message.name })} onClose={onClose} className="admin-reply-dialog">
      <div className="admin-form">
        <Field label={t('to')}>
          <input value={message.email} readOnly />
        </Field>
        <Field label={t('subject')}>
          <input value={subject} onChange={(event) => setSubject(event.target.value)} />
        </Field>
        <Field label={t('messageBody')}>
          <textarea rows={10} value={body} onChange={(event) => setBody(event.target.value)} />
        </Field>
        <p className="admin-hint">{t('replyHint')}</p>
        <div className="admin-actions">
          <button type="button" className="admin-button" onClick={onClose}>
            {t('cancel')}
          </button>
          <a className="admin-button" href={mailtoUrl(message.email, subject, body)} onClick={onSent}>
            {t('openInMailClient')}
          </a>
          <button type="button" className="admin-button admin-button-primary" onClick={openWebmail}>
            {t('openWebmail')}
          </button>
        </div>
      </div>
    </Dialog>
  );
}
