import type { IncomingMessage } from '@platform/kafka';
import type { LinksWriter } from '@platform/links';

/**
 * Notes each link's first redirect (a click or a scan) on the link, which is what the QR code delete rule reads.
 * One write per link and process: the links already marked are remembered (bounded), so a busy link costs
 * nothing after its first click.
 */
export function createRedirectMarks(writer: Pick<LinksWriter, 'markRedirected'>, options: { remember?: number } = {}) {
  const max = options.remember ?? 100_000;
  const marked = new Set<string>();
  return {
    note(message: IncomingMessage<'platform.links.clicks.ShortlinkClicked'>): Promise<void> | undefined {
      const { id, clicked_at } = message.value;
      if (marked.has(id)) return undefined;
      return writer.markRedirected(id, new Date(clicked_at)).then(() => {
        if (marked.size >= max) marked.delete(marked.values().next().value!);
        marked.add(id);
      });
    },
  };
}
