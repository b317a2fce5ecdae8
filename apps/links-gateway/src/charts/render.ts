/**
 * Server-rendered analytics pages: HTML with an inline SVG chart and CSS bars, no JavaScript at all (tooltips
 * are SVG `<title>`s, navigation is links and one form).
 */

export const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export interface ChartPoint {
  /** The bucket start, epoch milliseconds. */
  at: number;
  clicks: number;
  scans: number;
}

export interface TopList {
  title: string;
  rows: Array<{ label: string; count: number; href?: string }>;
}

export interface ChartPage {
  title: string;
  subtitle: string;
  unit: string;
  units: number;
  /** Most recent first, as the API answers. */
  points: ChartPoint[];
  totals: { clicks: number; scans: number };
  lists: TopList[];
  /** Links to the same page with other ranges. */
  ranges: Array<{ label: string; href: string; current: boolean }>;
  back?: { label: string; href: string };
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const pad = (n: number) => String(n).padStart(2, '0');

/** A bucket's label on the time axis, by unit (UTC, as the buckets). */
export function axisLabel(unit: string, at: number): string {
  const d = new Date(at);
  const day = `${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()}`;
  switch (unit) {
    case 'minute':
      return `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`;
    case 'hour':
      return `${day} ${pad(d.getUTCHours())}h`;
    case 'month':
      return `${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
    default:
      return day;
  }
}

/** The y axis's top: four gridline steps of 1, 2 or 5 times a power of ten, so every tick is a round number. */
export function niceCeiling(max: number): number {
  const needed = Math.max(1, max) / 4;
  const power = 10 ** Math.floor(Math.log10(needed));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= needed)!;
  return Math.max(1, step) * 4;
}

const format = (n: number) => n.toLocaleString('en-US');

/** Clicks and scans per unit as stacked bars, oldest on the left, with a y axis, gridlines and dates. */
export function renderChart(
  points: ChartPoint[],
  unit: string,
  options: { width?: number; height?: number } = {},
): string {
  const width = options.width ?? 960;
  const height = options.height ?? 320;
  const margin = { top: 24, right: 16, bottom: 44, left: 56 };
  const plotW = width - margin.left - margin.right;
  const plotH = height - margin.top - margin.bottom;
  const series = [...points].reverse();
  const top = niceCeiling(Math.max(0, ...series.map((p) => p.clicks + p.scans)));
  const slot = series.length > 0 ? plotW / series.length : plotW;
  const barW = Math.max(1, slot * 0.78);
  const y = (v: number) => margin.top + plotH - (v / top) * plotH;
  const parts: string[] = [];
  for (let i = 0; i <= 4; i++) {
    const v = (top / 4) * i;
    const yy = y(v).toFixed(1);
    parts.push(`<line x1="${margin.left}" x2="${width - margin.right}" y1="${yy}" y2="${yy}" class="grid"/>`);
    parts.push(
      `<text x="${margin.left - 8}" y="${yy}" class="ytick" text-anchor="end" dominant-baseline="middle">${format(Math.round(v))}</text>`,
    );
  }
  const labelEvery = Math.max(1, Math.ceil(series.length / 8));
  series.forEach((p, i) => {
    const x = margin.left + i * slot + (slot - barW) / 2;
    const label = axisLabel(unit, p.at);
    const tip = `<title>${escapeHtml(label)}: ${format(p.clicks)} clicks, ${format(p.scans)} scans</title>`;
    if (p.clicks > 0)
      parts.push(
        `<rect x="${x.toFixed(1)}" y="${y(p.clicks).toFixed(1)}" width="${barW.toFixed(1)}" height="${(y(0) - y(p.clicks)).toFixed(1)}" class="clicks">${tip}</rect>`,
      );
    if (p.scans > 0)
      parts.push(
        `<rect x="${x.toFixed(1)}" y="${y(p.clicks + p.scans).toFixed(1)}" width="${barW.toFixed(1)}" height="${(y(p.clicks) - y(p.clicks + p.scans)).toFixed(1)}" class="scans">${tip}</rect>`,
      );
    // Counted from the most recent bar, so it always has its date and the labels never crowd.
    if ((series.length - 1 - i) % labelEvery === 0) {
      parts.push(
        `<text x="${(x + barW / 2).toFixed(1)}" y="${height - margin.bottom + 18}" class="xtick" text-anchor="middle">${escapeHtml(label)}</text>`,
      );
    }
  });
  parts.push(
    `<line x1="${margin.left}" x2="${width - margin.right}" y1="${y(0).toFixed(1)}" y2="${y(0).toFixed(1)}" class="axis"/>`,
  );
  const total = series.reduce((sum, p) => sum + p.clicks + p.scans, 0);
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="100%" role="img" aria-label="${format(total)} engagements over ${series.length} ${escapeHtml(unit)}s">`,
    '<style>.grid{stroke:#e5e7eb}.axis{stroke:#6b7280}.ytick,.xtick{font:12px system-ui,sans-serif;fill:#4b5563}.clicks{fill:#2563eb}.scans{fill:#f59e0b}</style>',
    ...parts,
    '</svg>',
  ].join('');
}

function renderList(list: TopList): string {
  const max = Math.max(1, ...list.rows.map((r) => r.count));
  const rows = list.rows.length
    ? list.rows
        .map((r) => {
          const label = r.href ? `<a href="${escapeHtml(r.href)}">${escapeHtml(r.label)}</a>` : escapeHtml(r.label);
          return `<tr><td class="label">${label}<div class="bar" style="width:${((r.count / max) * 100).toFixed(1)}%"></div></td><td class="count">${format(r.count)}</td></tr>`;
        })
        .join('')
    : '<tr><td class="empty" colspan="2">No clicks yet</td></tr>';
  return `<section class="list"><h2>${escapeHtml(list.title)}</h2><table>${rows}</table></section>`;
}

const STYLE = `
body{font:15px/1.5 system-ui,-apple-system,Segoe UI,sans-serif;color:#111827;background:#f9fafb;margin:0}
main{max-width:1040px;margin:0 auto;padding:24px}
header h1{font-size:22px;margin:0 0 4px;word-break:break-all}
header p{margin:0;color:#4b5563;word-break:break-all}
nav.ranges{margin:16px 0;display:flex;gap:8px;flex-wrap:wrap}
nav.ranges a{padding:4px 10px;border:1px solid #d1d5db;border-radius:999px;color:#1f2937;text-decoration:none;background:#fff}
nav.ranges a.current{background:#1f2937;color:#fff;border-color:#1f2937}
.card{background:#fff;border:1px solid #e5e7eb;border-radius:12px;padding:16px;margin-bottom:16px}
.totals{display:flex;gap:24px;margin-bottom:8px}
.totals b{font-size:24px;display:block}
.legend span{display:inline-block;width:10px;height:10px;border-radius:2px;margin:0 4px 0 12px}
.lists{display:grid;grid-template-columns:repeat(auto-fit,minmax(300px,1fr));gap:16px}
.list{background:#fff;border:1px solid #e5e7eb;border-radius:12px;padding:16px}
.list h2{font-size:16px;margin:0 0 8px}
.list table{width:100%;border-collapse:collapse}
.list td{padding:4px 0;vertical-align:top}
.list td.label{word-break:break-all;padding-right:12px}
.list td.count{text-align:right;font-variant-numeric:tabular-nums;width:1%;white-space:nowrap}
.bar{height:4px;background:#93c5fd;border-radius:2px;margin-top:2px}
.empty{color:#6b7280}
a.back{color:#2563eb}
`;

export function renderPage(page: ChartPage): string {
  const ranges = page.ranges
    .map(
      (r) =>
        `<a href="${escapeHtml(r.href)}"${r.current ? ' class="current" aria-current="page"' : ''}>${escapeHtml(r.label)}</a>`,
    )
    .join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(page.title)} · analytics</title><style>${STYLE}</style></head>
<body><main>
${page.back ? `<p><a class="back" href="${escapeHtml(page.back.href)}">← ${escapeHtml(page.back.label)}</a></p>` : ''}
<header><h1>${escapeHtml(page.title)}</h1><p>${escapeHtml(page.subtitle)}</p></header>
<nav class="ranges" aria-label="Time range">${ranges}</nav>
<section class="card">
<div class="totals"><div><b>${format(page.totals.clicks + page.totals.scans)}</b>engagements</div><div><b>${format(page.totals.clicks)}</b>clicks</div><div><b>${format(page.totals.scans)}</b>scans</div></div>
<p class="legend">Per ${escapeHtml(page.unit)}, UTC:<span style="background:#2563eb"></span>clicks<span style="background:#f59e0b"></span>scans</p>
${renderChart(page.points, page.unit)}
</section>
<div class="lists">${page.lists.map(renderList).join('')}</div>
</main></body></html>`;
}

export function renderMessagePage(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body><main><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`;
}

export function renderLoginPage(next: string, error?: string): string {
  return renderMessagePage(
    'Link analytics',
    `${error ? `<p role="alert" style="color:#b91c1c">${escapeHtml(error)}</p>` : ''}
<form method="post" action="/charts/login" class="card">
<p><label for="token">Access token</label><br><input id="token" name="token" type="password" autocomplete="current-password" required style="width:100%;max-width:480px;padding:6px"></p>
<input type="hidden" name="next" value="${escapeHtml(next)}">
<p><button type="submit">Show analytics</button></p>
</form>`,
  );
}
