import { MessageTypeNames, type MessageTypes } from '@platform/contracts';
import type { BatchMessage } from '@platform/kafka';
import { reuseKeyOf, type LinkDoc, type LinksStore } from '@platform/links';

/** A link as the store holds it, without its outbox (as a handler writes it). */
type Link = Omit<LinkDoc, 'outbox' | 'has_outbox'>;

type CreateShortlink = MessageTypes[typeof MessageTypeNames.CreateShortlink];

/** What a shorten needs to find the group's link for its long URL again. */
export interface ReusableLookup {
  organization_id: string;
  group_guid: string;
  long_url: string;
}

const entryKey = (organizationId: string, reuseKey: string) => `${organizationId}\n${reuseKey}`;

/**
 * The reusable-link lookups of a batch's shortens, read in one round trip before the first of them runs.
 *
 * A group's commands share a partition and are handled one at a time, so each shorten's lookup was a read of its
 * own. The batch's leading shortens (those before any other command, which could change or delete a link) are
 * read together when the batch opens, and each is served its answer when it runs; a link one of them creates is
 * the answer for those after it with the same long URL. Any other lookup (a shorten after another command, a
 * retried batch's commands once forgotten) reads the store as before. Only this partition's owner writes a
 * group's links, so an answer stays right while the batch runs.
 */
export function primedReusableLinks(store: Pick<LinksStore, 'reusable' | 'reusableAmong'>) {
  /** Per primed command id, its entry; per entry, the link (null: none) as of the read or the batch's own writes. */
  const commands = new Map<string, string>();
  const links = new Map<string, Link | null>();

  return {
    /** Reads the lookups of the batch's leading shortens; resolves with what forgets them when the batch closes. */
    async prime(messages: ReadonlyArray<BatchMessage>): Promise<(() => void) | undefined> {
      const leading: Array<{ id: string; organizationId: string; reuseKey: string }> = [];
      for (const message of messages) {
        if (message.type !== MessageTypeNames.CreateShortlink) break;
        const v = message.value as CreateShortlink;
        if (v.force_new_link || v.keyword !== null) continue;
        leading.push({
          id: message.meta.id,
          organizationId: v.organization_id,
          reuseKey: reuseKeyOf(v.group_guid, v.long_url),
        });
      }
      if (leading.length === 0) return undefined;
      const byOrganization = new Map<string, Set<string>>();
      for (const { organizationId, reuseKey } of leading) {
        const keys = byOrganization.get(organizationId) ?? new Set<string>();
        byOrganization.set(organizationId, keys.add(reuseKey));
      }
      const found = await Promise.all(
        [...byOrganization].map(async ([organizationId, keys]) => {
          const stored = await store.reusableAmong(organizationId, [...keys]);
          return [...keys].map(
            (reuseKey) => [entryKey(organizationId, reuseKey), stored.get(reuseKey) ?? null] as const,
          );
        }),
      );
      for (const [entry, link] of found.flat()) links.set(entry, link);
      for (const { id, organizationId, reuseKey } of leading) commands.set(id, entryKey(organizationId, reuseKey));
      return () => {
        for (const { id, organizationId, reuseKey } of leading) {
          commands.delete(id);
          links.delete(entryKey(organizationId, reuseKey));
        }
      };
    },

    /** The group's link for the long URL: the primed answer for a primed command, else a read. */
    async get(lookup: ReusableLookup, commandId: string): Promise<Link | null> {
      const entry = commands.get(commandId);
      if (entry !== undefined && links.has(entry)) return links.get(entry)!;
      return store.reusable(lookup.organization_id, lookup.group_guid, lookup.long_url);
    },

    /** A link just stored: the answer for the primed shortens of its long URL that come after it. */
    created(link: Link): void {
      if (link.reuse_key === null) return;
      const entry = entryKey(link.organization_id, link.reuse_key);
      if (links.has(entry)) links.set(entry, link);
    },
  };
}

export type ReusableLinks = ReturnType<typeof primedReusableLinks>;
