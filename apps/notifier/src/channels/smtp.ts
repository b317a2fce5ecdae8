import { TEMPLATES, markdownToPlaintext, type OutgoingDoc } from '@platform/notifications';
import nodemailer from 'nodemailer';

export interface SmtpOptions {
  smtpUrl: string;
  from: string;
  timeoutMs: number;
}

/**
 * The Subject: the title as plain text, or, when that is blank (a custom notification may have a message and
 * no title), the template's name: a mail with an empty Subject looks broken and is often filtered.
 */
export function subjectOf(doc: Pick<OutgoingDoc, 'title' | 'template_id'>): string {
  const title = markdownToPlaintext(doc.title).trim();
  return title || (TEMPLATES.find((t) => t.id === doc.template_id)?.name ?? 'Notification');
}

/**
 * E-mails the notification as plain text. The Message-ID is the notification's id, so the one narrow window
 * where a retry can send twice (a crash after the server accepted it, before it was recorded) gives a copy that
 * mail clients collapse into one.
 */
export function createSmtpMethod(options: SmtpOptions) {
  const url = new URL(options.smtpUrl);
  // Pooled: a notification's e-mail goes over an open connection instead of a new one with its greeting and
  // EHLO each time (that cost a connection's set-up in the notifier and in the server per notification).
  const transport = nodemailer.createTransport({
    pool: true,
    host: url.hostname,
    port: Number(url.port || (url.protocol === 'smtps:' ? 465 : 587)),
    secure: url.protocol === 'smtps:',
    ...(url.username
      ? { auth: { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } }
      : {}),
    connectionTimeout: options.timeoutMs,
    greetingTimeout: options.timeoutMs,
    socketTimeout: options.timeoutMs,
  });
  const domain = /@([^>\s]+)>?\s*$/.exec(options.from)?.[1] ?? 'notifications.localhost';
  return {
    async send(doc: OutgoingDoc): Promise<'sent' | 'skipped'> {
      if (!doc.email) return 'skipped';
      const actions = doc.actions.map((a) => `${a.label}: ${a.url}`).join('\n');
      const body = markdownToPlaintext(doc.content);
      await transport.sendMail({
        from: options.from,
        to: doc.email,
        subject: subjectOf(doc),
        text: `${body}${actions ? `\n\n${actions}` : ''}\n`,
        messageId: `<${doc.notification_id}@${domain}>`,
        headers: { 'X-Notification-Template-Id': doc.template_id },
      });
      return 'sent';
    },
    close: () => transport.close(),
  };
}
