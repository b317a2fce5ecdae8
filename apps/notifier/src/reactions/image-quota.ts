import type { MessageTypeNames } from '@platform/contracts';
import type { IncomingMessage } from '@platform/kafka';
import { TEMPLATE_IDS } from '@platform/notifications';
import { enqueueNotification, type EnqueueDeps } from '../enqueue.js';
import { recipientsFor, type RecipientDeps } from './recipients.js';

/**
 * The compression that takes an image account's month across the threshold (80 % by default) notifies the
 * users linked to the account. Only the event whose count crosses it does, so it happens once a month; a
 * redelivered event is queued under the same id and adds nothing.
 */
export async function notifyQuotaNearlyUsed(
  deps: EnqueueDeps & RecipientDeps & { percent: number },
  message: IncomingMessage<typeof MessageTypeNames.ImageCompressed>,
): Promise<void> {
  const v = message.value;
  if (v.month_count === null || !v.monthly_quota) return;
  const threshold = Math.ceil((v.monthly_quota * deps.percent) / 100);
  const before = v.month_count - v.compressions;
  if (!(before < threshold && v.month_count >= threshold)) return;
  const recipients = await recipientsFor(deps, `images-account:${v.account_id}`, {
    email: null,
    name: `Image account ${v.account_id}`,
  });
  for (const recipient of recipients) {
    await enqueueNotification(deps, {
      causeId: `quota:${v.account_id}:${v.month}`,
      recipient,
      templateId: TEMPLATE_IDS.imageQuotaNearlyUsed,
      labels: {
        account_id: v.account_id,
        used: String(v.month_count),
        quota: String(v.monthly_quota),
        percent: String(Math.floor((v.month_count / v.monthly_quota) * 100)),
        month: v.month,
      },
      targets: [],
    });
  }
}
