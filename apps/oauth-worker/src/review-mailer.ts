import { MessageTypeNames } from '@platform/contracts';
import { UnavailableError } from '@platform/errors';
import type { IncomingMessage } from '@platform/kafka';
import { Schema, defineModel, isDuplicateKeyError, type Connection } from '@platform/mongo';
import type { Logger } from '@platform/telemetry';
import nodemailer from 'nodemailer';

export interface ReviewMailerOptions {
  smtpUrl: string;
  from: string;
  /** The developer settings page, linked from the e-mail. */
  settingsUrl: string;
  timeoutMs: number;
}

type Review = IncomingMessage<typeof MessageTypeNames.ClientAccepted> | IncomingMessage<typeof MessageTypeNames.ClientRejected>;

/**
 * Sends the owner the outcome of a review, driven by the ClientAccepted / ClientRejected events. A sent
 * e-mail is recorded by the event's id, so a redelivered event does not send it again; the Message-ID is
 * derived from the same id, so even the narrow crash window between sending and recording yields a
 * duplicate that mail clients collapse.
 */
export function createReviewMailer(connection: Connection, options: ReviewMailerOptions, logger: Logger) {
  const Sent = defineModel(
    connection,
    'OAuthReviewEmail',
    new Schema<{ _id: string; to: string; sent_at: Date; expires_at: Date }>(
      { _id: String, to: String, sent_at: Date, expires_at: Date },
      { versionKey: false, collection: 'oauth_review_emails' },
    ),
  );
  const url = new URL(options.smtpUrl);
  const transport = nodemailer.createTransport({
    host: url.hostname,
    port: Number(url.port || (url.protocol === 'smtps:' ? 465 : 587)),
    secure: url.protocol === 'smtps:',
    ...(url.username ? { auth: { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } } : {}),
    connectionTimeout: options.timeoutMs,
    greetingTimeout: options.timeoutMs,
    socketTimeout: options.timeoutMs,
  });
  const domain = new URL(options.settingsUrl).hostname || 'localhost';

  return {
    collection: Sent,
    async handle(message: Review): Promise<void> {
      const v = message.value;
      const id = `${message.type}:${v.client_id}:${v.occurred_at}`;
      if (await Sent.exists({ _id: id })) return;
      const accepted = message.type === MessageTypeNames.ClientAccepted;
      const reason = !accepted && 'reason' in v && v.reason ? `\n\nReason given by the reviewer: ${v.reason}` : '';
      const subject = accepted ? `Your OAuth client "${v.name}" was accepted` : `Your OAuth client "${v.name}" was rejected`;
      const text = accepted
        ? `Good news: the OAuth client "${v.name}" (${v.client_id}) was reviewed and accepted. It can now be used to ask users for access.\n\nManage it at ${options.settingsUrl}\n`
        : `The OAuth client "${v.name}" (${v.client_id}) was reviewed and rejected. It cannot be used.${reason}\n\nYou can change it and submit it again at ${options.settingsUrl}\n`;
      try {
        await transport.sendMail({
          from: options.from,
          to: v.owner_email,
          subject,
          text,
          messageId: `<${Buffer.from(id).toString('base64url')}@${domain}>`,
        });
      } catch (error) {
        throw new UnavailableError('smtp_unavailable', `Sending the review e-mail failed: ${(error as Error).message}`, { cause: error });
      }
      try {
        await Sent.create({ _id: id, to: v.owner_email, sent_at: new Date(), expires_at: new Date(Date.now() + 30 * 86_400_000) });
      } catch (error) {
        if (!isDuplicateKeyError(error)) throw error;
      }
      logger.info({ client_id: v.client_id, decision: accepted ? 'accepted' : 'rejected' }, 'review e-mail sent');
    },
    close() {
      transport.close();
    },
  };
}

export type ReviewMailer = ReturnType<typeof createReviewMailer>;
