/**
 * Renders a template's title, body and actions. Templates use the subset of Go text/template that Coder's
 * templates use: `{{.Labels.key}}`, the recipient's `{{.UserName}}`, `{{.UserUsername}}`, `{{.UserEmail}}`,
 * `{{.UserID}}`, `{{.NotificationName}}`, and `{{if X}}…{{else}}…{{end}}` on any of them. A missing value
 * renders as `<no value>`, as Go's does; nothing is evaluated beyond these lookups.
 */
export interface RenderData {
  labels: Record<string, string>;
  userName?: string;
  userUsername?: string;
  userEmail?: string;
  userId?: string;
  notificationName?: string;
}

const NO_VALUE = '<no value>';

function lookup(path: string, data: RenderData): string | undefined {
  const labels = /^\.Labels\.([A-Za-z0-9_]+)$/.exec(path);
  if (labels) return data.labels[labels[1]!];
  switch (path) {
    case '.UserName':
      return data.userName;
    case '.UserUsername':
      return data.userUsername;
    case '.UserEmail':
      return data.userEmail;
    case '.UserID':
      return data.userId;
    case '.NotificationName':
      return data.notificationName;
    default:
      return undefined;
  }
}

type Node = { text: string } | { value: string } | { cond: string; then: Node[]; otherwise: Node[] };

function parse(template: string): Node[] {
  const tokens = template.split(/(\{\{-?\s*[^}]*?\s*-?\}\})/);
  const root: Node[] = [];
  const stack: Array<{ nodes: Node[]; node?: { cond: string; then: Node[]; otherwise: Node[] }; inElse?: boolean }> = [
    { nodes: root },
  ];
  for (const token of tokens) {
    if (token === '') continue;
    const action = /^\{\{-?\s*(.*?)\s*-?\}\}$/.exec(token);
    const top = stack[stack.length - 1]!;
    if (!action) {
      top.nodes.push({ text: token });
      continue;
    }
    const body = action[1]!;
    const ifMatch = /^if\s+(\S+)$/.exec(body);
    if (ifMatch) {
      const node = { cond: ifMatch[1]!, then: [] as Node[], otherwise: [] as Node[] };
      top.nodes.push(node);
      stack.push({ nodes: node.then, node });
    } else if (body === 'else' && top.node) {
      top.nodes = top.node.otherwise;
      top.inElse = true;
    } else if (body === 'end' && stack.length > 1) {
      stack.pop();
    } else {
      top.nodes.push({ value: body });
    }
  }
  return root;
}

function evaluate(nodes: Node[], data: RenderData): string {
  return nodes
    .map((node) => {
      if ('text' in node) return node.text;
      if ('value' in node) return lookup(node.value, data) ?? NO_VALUE;
      const value = lookup(node.cond, data);
      return evaluate(value !== undefined && value !== '' ? node.then : node.otherwise, data);
    })
    .join('');
}

export function renderTemplate(template: string, data: RenderData): string {
  return evaluate(parse(template), data);
}

/** A template's actions (a JSON list of `{label, url}` templates), rendered; unusable entries are left out. */
export function renderActions(actionsJson: string, data: RenderData): Array<{ label: string; url: string }> {
  let list: unknown;
  try {
    list = JSON.parse(actionsJson);
  } catch {
    return [];
  }
  if (!Array.isArray(list)) return [];
  return list
    .filter(
      (a): a is { label: string; url: string } =>
        typeof a === 'object' && a !== null && typeof a.label === 'string' && typeof a.url === 'string',
    )
    .map((a) => ({ label: renderTemplate(a.label, data), url: renderTemplate(a.url, data) }));
}
