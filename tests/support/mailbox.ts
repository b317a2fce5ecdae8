import { resolveInfra, waitFor } from '@platform/testing';

export interface MailMessage {
  ID: string;
  MessageID: string;
  Subject: string;
  To: { Address: string }[];
  From: { Address: string };
}

/** Reads the real SMTP server's mailbox (Mailpit's API): every message sent to an address. */
export async function messagesTo(address: string): Promise<MailMessage[]> {
  const url = new URL('/api/v1/search', resolveInfra().mailboxUrl);
  url.searchParams.set('query', `to:"${address}"`);
  const response = await fetch(url, { signal: AbortSignal.timeout(5000) });
  if (!response.ok) throw new Error(`mailbox search answered ${response.status}`);
  return ((await response.json()) as { messages: MailMessage[] }).messages;
}

export async function messageText(id: string): Promise<string> {
  const response = await fetch(new URL(`/api/v1/message/${id}`, resolveInfra().mailboxUrl), {
    signal: AbortSignal.timeout(5000),
  });
  return ((await response.json()) as { Text: string }).Text;
}

export async function waitForMail(address: string, subjectIncludes: string, timeoutMs = 30_000): Promise<MailMessage> {
  return waitFor(async () => (await messagesTo(address)).find((m) => m.Subject.includes(subjectIncludes)), {
    timeoutMs,
    what: `an e-mail to ${address} about "${subjectIncludes}"`,
  });
}
