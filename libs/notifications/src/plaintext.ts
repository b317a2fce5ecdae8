/**
 * Markdown as plain text, for watch streams with `format=plaintext`: the text a reader sees, with markup
 * removed, links and images written `text (url)`, list items kept as `- item` / `1. item`, and the whole
 * trimmed (as Coder's plaintext rendering does).
 */
export function markdownToPlaintext(markdown: string): string {
  const lines = markdown.replace(/\r\n?/g, '\n').split('\n');
  const out: string[] = [];
  let fenced = false;
  for (const raw of lines) {
    if (/^\s*(```|~~~)/.test(raw)) {
      fenced = !fenced;
      continue;
    }
    if (fenced) {
      out.push(raw);
      continue;
    }
    let line = raw
      .replace(/^\s{0,3}#{1,6}\s+/, '') // headings
      .replace(/^\s{0,3}>\s?/, '') // quotes
      .replace(/^\s*([-*+])\s+/, '- ') // bullets
      .replace(/^\s*(\d+)[.)]\s+/, '$1. '); // ordered items
    if (/^\s{0,3}([-*_])(\s*\1){2,}\s*$/.test(line)) continue; // rules
    line = inline(line);
    out.push(line);
  }
  return out
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

function inline(text: string): string {
  return (
    text
      .replace(/!\[([^\]]*)\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g, (_m, alt: string, url: string) =>
        alt ? `${alt} (${url})` : url,
      )
      .replace(/\[([^\]]+)\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g, (_m, label: string, url: string) =>
        label === url ? url : `${label} (${url})`,
      )
      .replace(/<((?:https?|mailto):[^>\s]+)>/g, '$1')
      .replace(/`([^`]+)`/g, '$1')
      // Underscores emphasise only at word edges (CommonMark): snake_case and ids keep theirs.
      .replace(/\*\*(?=\S)([\s\S]*?\S)\*\*/g, '$1')
      .replace(/(?<![\p{L}\p{N}_])__(?=\S)([\s\S]*?\S)__(?![\p{L}\p{N}_])/gu, '$1')
      .replace(/\*(?=\S)([\s\S]*?\S)\*/g, '$1')
      .replace(/(?<![\p{L}\p{N}_])_(?=\S)([\s\S]*?\S)_(?![\p{L}\p{N}_])/gu, '$1')
      .replace(/~~(?=\S)([\s\S]*?\S)~~/g, '$1')
      .replace(/\\([\\`*_{}[\]()#+\-.!>~|])/g, '$1')
  );
}
