export interface MailboxMessage {
  ID: string;
  From: { Address: string };
  To: Array<{ Address: string }>;
  Subject: string;
}

/** Reads the SMTP sink's mailbox through its Mailpit-compatible HTTP API. */
export async function readMailbox(mailboxUrl: string): Promise<MailboxMessage[]> {
  const response = await fetch(`${mailboxUrl}/api/v1/messages`, { signal: AbortSignal.timeout(5000) });
  if (!response.ok) throw new Error(`mailbox answered ${response.status}`);
  const body = (await response.json()) as { messages: MailboxMessage[] };
  return body.messages;
}

export async function clearMailbox(mailboxUrl: string): Promise<void> {
  await fetch(`${mailboxUrl}/api/v1/messages`, { method: 'DELETE', signal: AbortSignal.timeout(5000) });
}
