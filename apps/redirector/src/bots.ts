/** User agents of crawlers, link-preview fetchers and monitors: their clicks are recorded with `bot: true`. */
const BOT =
  /bot\b|crawl|spider|slurp|facebookexternalhit|embedly|quora link preview|whatsapp|telegrambot|skypeuripreview|bitlybot|preview|headlesschrome|python-requests|curl\/|wget\/|go-http-client|okhttp|axios\/|node-fetch|undici/i;

// Most clicks come from a few hundred browsers' user agents: the answer for each is remembered (up to a
// bound, then forgotten all at once) rather than the pattern run over a 100-character string per redirect.
const MAX_REMEMBERED = 2000;
const remembered = new Map<string, boolean>();

export function isBot(userAgent: string | undefined): boolean {
  if (!userAgent) return true;
  let bot = remembered.get(userAgent);
  if (bot === undefined) {
    bot = BOT.test(userAgent);
    if (remembered.size >= MAX_REMEMBERED) remembered.clear();
    if (userAgent.length <= 512) remembered.set(userAgent, bot);
  }
  return bot;
}
