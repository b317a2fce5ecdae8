import { isbot } from 'isbot';

// Most clicks come from a few hundred browsers' user agents: the answer for each is remembered (up to a
// bound, then forgotten all at once) rather than isbot's pattern run over a 100-character string per redirect.
const MAX_REMEMBERED = 2000;
const remembered = new Map<string, boolean>();

/**
 * Whether a click comes from a crawler, link-preview fetcher, monitor or script: isbot's list, the one the
 * analytics aggregator asks too, so the redirector and the counts agree. No user agent at all counts as a bot.
 */
export function isBot(userAgent: string | undefined): boolean {
  if (!userAgent) return true;
  let bot = remembered.get(userAgent);
  if (bot === undefined) {
    bot = isbot(userAgent);
    if (remembered.size >= MAX_REMEMBERED) remembered.clear();
    if (userAgent.length <= 512) remembered.set(userAgent, bot);
  }
  return bot;
}
