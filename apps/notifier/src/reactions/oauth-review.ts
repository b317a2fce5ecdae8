import { MessageTypeNames } from '@platform/contracts';
import type { IncomingMessage } from '@platform/kafka';
import { TEMPLATE_IDS } from '@platform/notifications';
import { enqueueNotification, type EnqueueDeps } from '../enqueue.js';
import { recipientsFor, type RecipientDeps } from './recipients.js';

type Review =
  IncomingMessage<typeof MessageTypeNames.ClientAccepted> | IncomingMessage<typeof MessageTypeNames.ClientRejected>;

/**
 * An OAuth client's review outcome, to its owner: in the inbox of each user linked to the owner, and by e-mail
 * once, to the address the owner registered the client with. Queued under the event's id, so a redelivered
 * event queues nothing more.
 */
export async function notifyClientReviewed(
  deps: EnqueueDeps & RecipientDeps & { webPublicUrl: string },
  message: Review,
): Promise<void> {
  const v = message.value;
  const accepted = message.type === MessageTypeNames.ClientAccepted;
  const recipients = await recipientsFor(deps, `scheduling-user:${v.owner_user_id}`, {
    email: v.owner_email,
    name: v.owner_email,
  });
  const labels: Record<string, string> = {
    client_id: v.client_id,
    client_name: v.name,
    client_url: new URL(`/settings/developer/oauth/${encodeURIComponent(v.client_id)}`, deps.webPublicUrl).toString(),
  };
  if (v.reason) labels['reason'] = v.reason;
  for (const [i, recipient] of recipients.entries()) {
    await enqueueNotification(deps, {
      causeId: message.meta.id,
      recipient,
      templateId: accepted ? TEMPLATE_IDS.oauthClientAccepted : TEMPLATE_IDS.oauthClientRejected,
      labels,
      targets: [],
      // One e-mail per decision, to the owner's address, however many users are linked to the owner.
      email: i === 0 ? v.owner_email : null,
    });
  }
}
