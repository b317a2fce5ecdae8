/** User agents of crawlers, link-preview fetchers and monitors: their clicks are recorded with `bot: true`. */
const BOT = /bot\b|crawl|spider|slurp|facebookexternalhit|embedly|quora link preview|whatsapp|telegrambot|skypeuripreview|bitlybot|preview|headlesschrome|python-requests|curl\/|wget\/|go-http-client|okhttp|axios\/|node-fetch|undici/i;

export const isBot = (userAgent: string | undefined) => !userAgent || BOT.test(userAgent);
