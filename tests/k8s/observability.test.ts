/**
 * Validates deploy/observability/ with the real tools, built and cached by deploy/local/ (no cluster needed):
 *
 * 1. the OpenTelemetry Collector config with `otelcol-platform validate` (deploy/local/otelcol.sh builds that
 *    distribution from deploy/local/otelcol/builder-config.yaml), and the shape of its traces pipeline;
 * 2. the Prometheus configuration and alert rules with `promtool check config` / `check rules`, and the alerts'
 *    behaviour with `promtool test rules` (deploy/observability/prometheus/tests/);
 * 3. the Grafana dashboards' structure, and every query in them parsed by promtool (as a generated rule file);
 * 4. the collector's Kubernetes objects (deploy/observability/kustomization.yaml) against the Kubernetes schemas;
 * 5. every metric that an alert, a dashboard query or a dashboard variable names is one the platform exposes:
 *    the instruments registered in apps/ and libs/ (createCounter('platform.x') and the like, named the way the
 *    Prometheus exporter names them) plus what a real process started by @platform/telemetry serves at /metrics
 *    (HTTP server durations, Node.js runtime), which also proves that naming.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { IDeployment } from 'kubernetes-models/apps/v1/Deployment';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { runNodeScript } from '../support/node-script.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const OBSERVABILITY = join(ROOT, 'deploy/observability');
const PROMETHEUS = join(OBSERVABILITY, 'prometheus');
const RULES = join(PROMETHEUS, 'rules');
const DASHBOARDS = join(OBSERVABILITY, 'grafana/dashboards');
const COLLECTOR_CONFIG = join(OBSERVABILITY, 'otel-collector.yaml');
const rel = (file: string): string => relative(ROOT, file);

/** A first build of a tool takes minutes on two cores; afterwards it comes from the cache at once. */
const TOOL_BUILD_MS = 20 * 60_000;
/** Series Prometheus itself adds to every scrape. */
const PROMETHEUS_SYNTHETIC = new Set([
  'up',
  'scrape_duration_seconds',
  'scrape_samples_scraped',
  'scrape_series_added',
]);

const files = (dir: string, suffix: string): string[] =>
  readdirSync(dir)
    .filter((name) => name.endsWith(suffix))
    .sort()
    .map((name) => join(dir, name));

function run(command: string, args: string[], options: { cwd?: string; timeoutMs?: number } = {}) {
  const result = spawnSync(command, args, {
    cwd: options.cwd ?? ROOT,
    encoding: 'utf8',
    timeout: options.timeoutMs ?? 60_000,
  });
  return {
    status: result.status,
    output: `${result.stdout ?? ''}${result.stderr ?? ''}`,
    stdout: result.stdout ?? '',
    error: result.error,
  };
}

/** deploy/local/<tool>.sh path: builds the tool into the cache when missing, prints its path. */
function toolPath(script: string): string {
  const result = run('bash', [join(ROOT, 'deploy/local', script), 'path'], { timeoutMs: TOOL_BUILD_MS });
  if (result.status !== 0)
    throw new Error(
      `deploy/local/${script} path failed (${result.error?.message ?? `exit ${result.status}`}):\n${result.output}`,
    );
  return result.stdout.trim().split('\n').at(-1)!;
}

// ---------------------------------------------------------------------------------------------
// The metrics the platform exposes
// ---------------------------------------------------------------------------------------------

const INSTRUMENT =
  /\.create(Counter|UpDownCounter|Histogram|Gauge|ObservableGauge|ObservableCounter|ObservableUpDownCounter)\(\s*'([A-Za-z0-9_.\-/]+)'/g;

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      if (name !== 'node_modules' && name !== 'dist' && name !== 'generated') out.push(...sourceFiles(path));
    } else if (name.endsWith('.ts') && !name.endsWith('.test.ts') && !name.endsWith('.d.ts')) {
      out.push(path);
    }
  }
  return out;
}

/** The Prometheus series names of an OpenTelemetry instrument, as @opentelemetry/exporter-prometheus writes them. */
function prometheusNames(kind: string, name: string): string[] {
  const base = name.replace(/[^A-Za-z0-9_:]/g, '_');
  if (kind === 'Counter' || kind === 'ObservableCounter') return [`${base}_total`];
  if (kind === 'Histogram') return [`${base}_bucket`, `${base}_sum`, `${base}_count`];
  return [base];
}

/** Instruments registered in apps/ and libs/ sources: Prometheus name -> where. */
function registeredMetrics(): Map<string, string> {
  const found = new Map<string, string>();
  for (const top of ['apps', 'libs']) {
    for (const pkg of readdirSync(join(ROOT, top))) {
      const src = join(ROOT, top, pkg, 'src');
      if (!statSync(join(ROOT, top, pkg)).isDirectory() || !readdirSync(join(ROOT, top, pkg)).includes('src')) continue;
      for (const file of sourceFiles(src)) {
        for (const match of readFileSync(file, 'utf8').matchAll(INSTRUMENT)) {
          for (const name of prometheusNames(match[1]!, match[2]!)) found.set(name, rel(file));
        }
      }
    }
  }
  return found;
}

/**
 * The /metrics text of a real process: @platform/telemetry started as every app's runtime starts it, a plain
 * HTTP server answering a request, and one counter and one seconds histogram of our own to pin the naming.
 */
async function scrapeTelemetryProcess(): Promise<string> {
  const script = `
    import { createRequire } from 'node:module';
    import { startTelemetry, createLogger, metrics } from '@platform/telemetry';
    const telemetry = startTelemetry({ serviceName: 'observability-test' });
    // Required after telemetry has started, as Fastify requires it in the apps: instrumentation patches
    // CommonJS modules as they load (an ESM import would need the SDK's loader hook).
    const { createServer } = createRequire(import.meta.url)('node:http');
    const meter = metrics.getMeter('@platform/observability-test');
    meter.createCounter('platform.probe.count').add(1, { outcome: 'ok' });
    meter.createHistogram('platform.probe.duration', { unit: 's' }).record(0.2);
    const server = createServer((request, response) => {
      if (request.url === '/metrics') return telemetry.metricsHandler(request, response);
      response.end('ok');
    });
    // An app of @platform/http, loaded after telemetry like every gateway's: its requests carry the route.
    const { createHttpApp } = await import('@platform/http');
    const app = await createHttpApp({
      name: 'observability-test',
      logger: createLogger({ name: 'observability-test', level: 'silent' }),
      renderError: (error) => ({ statusCode: error.kind === 'not_found' ? 404 : 500, body: { error: error.code } }),
    });
    app.get('/items/:id', async () => ({ ok: true }));
    const api = await app.listen({ port: 0, host: '127.0.0.1' });
    for (const path of ['/items/1', '/items/2', '/nowhere/3']) await (await fetch(api + path)).text();
    await app.close();
    server.listen(0, '127.0.0.1', async () => {
      const url = 'http://127.0.0.1:' + server.address().port;
      await (await fetch(url + '/hello')).text();
      await new Promise((done) => setTimeout(done, 300));
      process.stdout.write(await (await fetch(url + '/metrics')).text());
      server.close();
      await telemetry.shutdown();
    });
  `;
  // Plain node resolves the workspace package to its built dist/ (npm test builds before it runs vitest).
  return runNodeScript(script, {
    cwd: join(ROOT, 'tests'),
    what: 'the telemetry probe process (is libs/telemetry built? npm run build)',
  });
}

// ---------------------------------------------------------------------------------------------
// PromQL: the metric names a query reads
// ---------------------------------------------------------------------------------------------

const PROMQL_KEYWORDS = new Set([
  'by',
  'without',
  'on',
  'ignoring',
  'group_left',
  'group_right',
  'bool',
  'and',
  'or',
  'unless',
  'offset',
  'inf',
  'nan',
  'atan2',
]);

/** Metric names in a PromQL expression: identifiers that are not functions, keywords, labels or numbers. */
function metricNamesIn(expr: string): string[] {
  const stripped = expr
    .replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`[^`]*`/g, '""')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ');
  const names = new Set<string>();
  for (const match of stripped.matchAll(/(?<![\w.$])([A-Za-z_:][A-Za-z0-9_:]*)(\s*\()?/g)) {
    const [, name, call] = match;
    if (call || PROMQL_KEYWORDS.has(name!.toLowerCase()) || /^\d/.test(name!)) continue;
    names.add(name!);
  }
  return [...names];
}

/** Grafana's variables replaced by values PromQL accepts, so that promtool can parse the query. */
const resolveGrafanaVariables = (expr: string): string =>
  expr.replace(/\$__(rate_interval|interval|range)\b/g, '5m').replace(/\$\{?(\w+)\}?/g, 'x');

// ---------------------------------------------------------------------------------------------
// What the files hold
// ---------------------------------------------------------------------------------------------

interface AlertRule {
  alert?: string;
  record?: string;
  expr: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}
interface RuleFile {
  groups: Array<{ name: string; rules: AlertRule[] }>;
}
interface Target {
  refId?: string;
  expr?: string;
  datasource?: { type?: string; uid?: string };
}
interface Panel {
  id?: number;
  type: string;
  title?: string;
  datasource?: { type?: string; uid?: string };
  gridPos?: { h: number; w: number; x: number; y: number };
  targets?: Target[];
  panels?: Panel[];
}
interface Variable {
  name: string;
  type: string;
  query?: string | { query?: string };
  definition?: string;
}
interface Dashboard {
  uid?: string;
  title?: string;
  schemaVersion?: number;
  tags?: string[];
  templating?: { list: Variable[] };
  panels?: Panel[];
}

const ruleFiles = (): Array<{ file: string; rules: RuleFile }> =>
  files(RULES, '.yml').map((file) => ({ file, rules: parse(readFileSync(file, 'utf8')) as RuleFile }));
const alertRules = (): Array<{ file: string; rule: AlertRule }> =>
  ruleFiles().flatMap(({ file, rules }) => rules.groups.flatMap((g) => g.rules.map((rule) => ({ file, rule }))));
const dashboards = (): Array<{ file: string; dashboard: Dashboard }> =>
  files(DASHBOARDS, '.json').map((file) => ({ file, dashboard: JSON.parse(readFileSync(file, 'utf8')) as Dashboard }));
const panelsOf = (d: Dashboard): Panel[] =>
  (d.panels ?? []).flatMap((p) => (p.type === 'row' ? (p.panels ?? []) : [p]));

/** `label_values(<selector>, label)` variables read a metric too. */
function variableExpr(variable: Variable): string | undefined {
  if (variable.type !== 'query') return undefined;
  const query =
    typeof variable.query === 'string' ? variable.query : (variable.query?.query ?? variable.definition ?? '');
  const labelValues = /^label_values\((.*),\s*\w+\s*\)$/.exec(query.trim());
  return labelValues ? labelValues[1] : query;
}

/** GitHub's anchors of the Markdown headings of a file. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  for (const line of markdown.split('\n')) {
    const heading = /^#{1,6}\s+(.*)$/.exec(line);
    if (!heading) continue;
    anchors.add(
      heading[1]!
        .trim()
        .toLowerCase()
        .replace(/[^\p{L}\p{N}\s_-]/gu, '')
        .replace(/\s/g, '-'),
    );
  }
  return anchors;
}

// ---------------------------------------------------------------------------------------------

let promtool: string;
let otelcol: string;
let exposed: Map<string, string>;
let scraped: string;
const scratch = mkdtempSync(join(tmpdir(), 'observability-test-'));

beforeAll(async () => {
  promtool = toolPath('promtool.sh');
  otelcol = toolPath('otelcol.sh');
  scraped = await scrapeTelemetryProcess();
  exposed = registeredMetrics();
  for (const match of scraped.matchAll(/^# TYPE (\S+) (\w+)$/gm)) {
    const [, name, type] = match;
    const names = type === 'histogram' ? [`${name}_bucket`, `${name}_sum`, `${name}_count`] : [name!];
    for (const n of names)
      if (!exposed.has(n)) exposed.set(n, 'the /metrics of a process started by @platform/telemetry');
  }
}, 2 * TOOL_BUILD_MS);

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('metrics the platform exposes', () => {
  it('are named by the exporter as the code and this test assume', () => {
    expect(scraped).toMatch(/^platform_probe_count_total\{[^}]*outcome="ok"[^}]*\} 1$/m);
    // Seconds histograms get buckets up to two minutes (libs/telemetry's view), not the SDK's millisecond defaults.
    expect(scraped).toMatch(/^platform_probe_duration_bucket\{[^}]*le="0\.25"[^}]*\} 1$/m);
    expect(scraped).toMatch(/^platform_probe_duration_bucket\{[^}]*le="120"[^}]*\} 1$/m);
    expect(scraped).toMatch(/^http_server_request_duration_count\{[^}]*http_response_status_code="200"[^}]*\} 1$/m);
    expect(scraped).toMatch(/^http_server_request_duration_bucket\{[^}]*le="90"[^}]*\} 1$/m);
    // The route pattern of a @platform/http app, never its URL; a URL that matched no route has a fixed value.
    expect(scraped).toMatch(/^http_server_request_duration_count\{[^}]*http_route="\/items\/:id"[^}]*\} 2$/m);
    expect(scraped).toMatch(
      /^http_server_request_duration_count\{(?=[^}]*http_response_status_code="404")(?=[^}]*http_route="unmatched")[^}]*\} 1$/m,
    );
    expect(scraped).not.toMatch(/http_route="\/items\/1"/);
  });

  it('cover what operations watch: HTTP, consumer lag, handlers, webhooks, images, redirects, clicks, watch streams', () => {
    for (const name of [
      'http_server_request_duration_bucket',
      'platform_messaging_consumer_lag',
      'platform_messaging_processed_total',
      'platform_messaging_handler_duration_bucket',
      'platform_messaging_batch_duration_bucket',
      'platform_webhook_attempts_total',
      'platform_webhook_attempt_duration_bucket',
      'platform_links_redirects_total',
      'platform_links_clicks_buffered',
      'platform_links_clicks_spilled_total',
      'platform_links_clicks_dropped_total',
      'platform_analytics_event_delay_bucket',
      'platform_notifications_watch_open',
      'nodejs_eventloop_delay_p99',
    ]) {
      expect(exposed.has(name), name).toBe(true);
    }
  });

  it('include every metric the alert rules, dashboards and dashboard variables read', () => {
    const unknown: string[] = [];
    const check = (where: string, expr: string) => {
      for (const name of metricNamesIn(expr)) {
        if (!exposed.has(name) && !PROMETHEUS_SYNTHETIC.has(name)) unknown.push(`${where}: ${name}`);
      }
    };
    for (const { file, rule } of alertRules()) check(`${rel(file)} ${rule.alert ?? rule.record}`, rule.expr);
    for (const { file, dashboard } of dashboards()) {
      for (const panel of panelsOf(dashboard))
        for (const target of panel.targets ?? []) check(`${rel(file)} "${panel.title}"`, target.expr ?? '');
      for (const variable of dashboard.templating?.list ?? []) {
        const expr = variableExpr(variable);
        if (expr) check(`${rel(file)} variable ${variable.name}`, expr);
      }
    }
    expect(unknown).toEqual([]);
  });

  it('are found in queries by the name extraction the check above relies on', () => {
    expect(
      metricNamesIn('sum by (app, le) (rate(http_server_request_duration_bucket{job="platform", app!~"a|b"}[5m])) > 1'),
    ).toEqual(['http_server_request_duration_bucket']);
    expect(
      metricNamesIn(
        'deriv(sum by (group) (platform_messaging_consumer_lag{x="on(y)"})[15m:1m]) > 0 and on (group) up offset 5m',
      ),
    ).toEqual(['platform_messaging_consumer_lag', 'up']);
    expect(
      metricNamesIn('histogram_quantile(0.99, sum without (pod) (rate(some_metric_bucket[$__rate_interval]))) * 60'),
    ).toEqual(['some_metric_bucket']);
  });
});

describe('Prometheus configuration and alert rules', () => {
  it('pass promtool check config (which also checks the rule files it loads)', () => {
    const result = run(promtool, ['check', 'config', join(PROMETHEUS, 'prometheus.yml')]);
    expect(result.output).toContain('SUCCESS');
    expect(result.status, result.output).toBe(0);
    expect(result.output).toMatch(/SUCCESS: \d+ rules found/);
  });

  it('pass promtool check rules, with no lint findings', () => {
    const result = run(promtool, ['check', 'rules', '--lint=all', '--lint-fatal', ...files(RULES, '.yml')]);
    expect(result.status, result.output).toBe(0);
  });

  it('fire as their unit tests expect (promtool test rules)', () => {
    const tests = files(join(PROMETHEUS, 'tests'), '.test.yml');
    expect(tests.length).toBeGreaterThan(0);
    const result = run(promtool, ['test', 'rules', ...tests]);
    expect(result.status, result.output).toBe(0);
  });

  it('each carry a severity, a summary, a description and a runbook section that exists', () => {
    const runbook = anchorsOf(readFileSync(join(ROOT, 'docs/operations.md'), 'utf8'));
    const problems: string[] = [];
    const names = new Set<string>();
    for (const { rule } of alertRules()) {
      if (!rule.alert) continue;
      if (names.has(rule.alert)) problems.push(`${rule.alert}: defined twice`);
      names.add(rule.alert);
      if (!['critical', 'warning', 'info'].includes(rule.labels?.['severity'] ?? ''))
        problems.push(`${rule.alert}: severity`);
      for (const key of ['summary', 'description', 'runbook'])
        if (!rule.annotations?.[key]) problems.push(`${rule.alert}: no ${key}`);
      const anchor = /^docs\/operations\.md#(.+)$/.exec(rule.annotations?.['runbook'] ?? '');
      if (!anchor || !runbook.has(anchor[1]!))
        problems.push(`${rule.alert}: runbook ${rule.annotations?.['runbook']} is no heading of docs/operations.md`);
      if (!/job="platform"/.test(rule.expr)) problems.push(`${rule.alert}: does not select job="platform"`);
    }
    expect(problems).toEqual([]);
  });

  it('cover each failure the issue names', () => {
    const exprs = alertRules().map(({ rule }) => rule.expr);
    for (const needle of [
      /platform_messaging_consumer_lag/, // lag growing, stalled consumers
      /outcome="dead_lettered"/, // a dead-letter topic receiving
      /http_response_status_code=~"5\.\."/, // 5xx ratio per gateway
      /histogram_quantile\(0\.99,[\s\S]*http_server_request_duration_bucket/, // p99 per gateway
      /platform_webhook_attempts_total/, // webhook failure rate
      /group="image-worker"/, // image pipeline errors and time
      /platform_notifications_watch_open/, // watch connection drops
      /platform_links_clicks_(dropped|spilled)_total/, // the redirector's clicks
      /^up\{job="platform"\} == 0$/, // a process down
    ]) {
      expect(
        exprs.some((expr) => needle.test(expr.trim())),
        String(needle),
      ).toBe(true);
    }
  });
});

describe('Grafana dashboards', () => {
  it('are well formed: unique uids, a Prometheus datasource variable, panels with a datasource, a place and queries', () => {
    const all = dashboards();
    expect(all.map(({ dashboard }) => dashboard.uid)).toEqual(expect.arrayContaining(['platform-overview']));
    expect(new Set(all.map(({ dashboard }) => dashboard.uid)).size).toBe(all.length);
    const problems: string[] = [];
    for (const { file, dashboard } of all) {
      const where = rel(file);
      if (!dashboard.uid || !/^[\w-]{1,40}$/.test(dashboard.uid)) problems.push(`${where}: uid`);
      if (!dashboard.title) problems.push(`${where}: title`);
      if (typeof dashboard.schemaVersion !== 'number') problems.push(`${where}: schemaVersion`);
      const datasource = dashboard.templating?.list.find((v) => v.name === 'datasource');
      if (datasource?.type !== 'datasource' || datasource.query !== 'prometheus')
        problems.push(`${where}: no Prometheus datasource variable`);
      const ids = new Set<number>();
      for (const panel of dashboard.panels ?? []) {
        if (panel.id === undefined || ids.has(panel.id))
          problems.push(`${where} "${panel.title}": missing or repeated id`);
        else ids.add(panel.id);
        const grid = panel.gridPos;
        if (!grid || grid.w < 1 || grid.h < 1 || grid.x < 0 || grid.x + grid.w > 24 || grid.y < 0)
          problems.push(`${where} "${panel.title}": gridPos`);
      }
      for (const panel of panelsOf(dashboard)) {
        const label = `${where} "${panel.title}"`;
        if (!panel.title) problems.push(`${where}: a panel without title`);
        if (panel.datasource?.type !== 'prometheus' || panel.datasource.uid !== '${datasource}')
          problems.push(`${label}: datasource`);
        if (!panel.targets?.length) problems.push(`${label}: no targets`);
        const refIds = new Set<string>();
        for (const target of panel.targets ?? []) {
          if (!target.expr?.trim()) problems.push(`${label}: a target without expr`);
          if (!target.refId || refIds.has(target.refId)) problems.push(`${label}: missing or repeated refId`);
          refIds.add(target.refId ?? '');
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('hold only queries that promtool parses', () => {
    const rules: Array<{ record: string; expr: string }> = [];
    const origin: string[] = [];
    for (const { file, dashboard } of dashboards()) {
      for (const panel of panelsOf(dashboard)) {
        for (const target of panel.targets ?? []) {
          rules.push({ record: `dashboard:query_${rules.length}`, expr: resolveGrafanaVariables(target.expr ?? '') });
          origin.push(`${rel(file)} "${panel.title}" ${target.refId}`);
        }
      }
      for (const variable of dashboard.templating?.list ?? []) {
        const expr = variableExpr(variable);
        if (!expr) continue;
        rules.push({ record: `dashboard:query_${rules.length}`, expr: resolveGrafanaVariables(expr) });
        origin.push(`${rel(file)} variable ${variable.name}`);
      }
    }
    const file = join(scratch, 'dashboard-queries.yml');
    writeFileSync(file, stringify({ groups: [{ name: 'dashboard-queries', rules }] }));
    const result = run(promtool, ['check', 'rules', file]);
    // promtool names the failing rule by its index: map it back to the panel.
    const named = result.output.replace(/dashboard:query_(\d+)/g, (_all, n: string) => origin[Number(n)] ?? n);
    expect(result.status, named).toBe(0);
    expect(rules.length).toBeGreaterThan(40);
  });
});

describe('OpenTelemetry Collector configuration', () => {
  it('is valid for the collector built from deploy/local/otelcol/builder-config.yaml', () => {
    const result = run(otelcol, ['validate', `--config=${COLLECTOR_CONFIG}`]);
    expect(result.status, result.output).toBe(0);
  });

  it('is really checked: an unknown key of a component fails validate', () => {
    const broken = join(scratch, 'otel-collector-broken.yaml');
    writeFileSync(
      broken,
      readFileSync(COLLECTOR_CONFIG, 'utf8').replace(
        '    passthrough: false\n',
        '    passthrough: false\n    pod_ip_from: nowhere\n',
      ),
    );
    const result = run(otelcol, ['validate', `--config=${broken}`]);
    expect(result.status).not.toBe(0);
    expect(result.output).toContain('pod_ip_from');
  });

  it('receives OTLP and sends traces through memory_limiter, k8sattributes and batch', () => {
    const config = parse(readFileSync(COLLECTOR_CONFIG, 'utf8')) as {
      receivers: Record<string, { protocols?: Record<string, unknown> }>;
      service: { pipelines: Record<string, { receivers: string[]; processors: string[]; exporters: string[] }> };
    };
    expect(Object.keys(config.receivers['otlp']?.protocols ?? {}).sort()).toEqual(['grpc', 'http']);
    const traces = config.service.pipelines['traces']!;
    expect(traces.receivers).toEqual(['otlp']);
    expect(traces.processors[0]).toBe('memory_limiter');
    expect(traces.processors).toContain('k8sattributes');
    expect(traces.processors.at(-1)).toBe('batch');
    expect(traces.exporters.length).toBeGreaterThan(0);
    // The apps send OTLP/HTTP to <endpoint>/v1/traces (libs/telemetry): the receiver must listen on 4318.
    expect(readFileSync(COLLECTOR_CONFIG, 'utf8')).toMatch(
      /http:\s*\n\s*endpoint: \$\{env:MY_POD_IP:-0\.0\.0\.0\}:4318/,
    );
  });
});

describe("the collector's Kubernetes objects", () => {
  const kustomization = parse(readFileSync(join(OBSERVABILITY, 'kustomization.yaml'), 'utf8')) as {
    resources: string[];
    configMapGenerator: Array<{ name: string; files: string[] }>;
  };
  const objects = (): Array<{
    file: string;
    object: { apiVersion: string; kind: string; metadata: { name: string } };
  }> =>
    kustomization.resources.map((resource) => {
      const file = join(OBSERVABILITY, resource);
      return {
        file,
        object: parse(readFileSync(file, 'utf8')) as { apiVersion: string; kind: string; metadata: { name: string } },
      };
    });

  it('are every file of collector/, each valid against the Kubernetes schema of its kind', async () => {
    expect([...kustomization.resources].sort()).toEqual(
      files(join(OBSERVABILITY, 'collector'), '.yaml').map((f) => relative(OBSERVABILITY, f)),
    );
    const errors: string[] = [];
    for (const { file, object } of objects()) {
      const [group, version] = object.apiVersion.includes('/') ? object.apiVersion.split('/') : ['', object.apiVersion];
      const path = group
        ? `kubernetes-models/${group}/${version}/${object.kind}`
        : `kubernetes-models/${version}/${object.kind}`;
      try {
        const Model = ((await import(path)) as Record<string, new (data: unknown) => { validate(): void }>)[
          object.kind
        ]!;
        new Model(object).validate();
      } catch (error) {
        errors.push(`${rel(file)}: ${(error as Error).message}`);
      }
    }
    expect(errors).toEqual([]);
  });

  it('run the collector on the generated config, reachable where the apps send (OTLP/HTTP 4318)', () => {
    const generator = kustomization.configMapGenerator.find((g) => g.files.includes('otel-collector.yaml'));
    const deployment = objects().find(({ object }) => object.kind === 'Deployment')!.object as unknown as IDeployment;
    const pod = deployment.spec!.template.spec!;
    const container = pod.containers[0]!;
    const volume = pod.volumes?.find((v) => v.configMap?.name === generator?.name);
    const mount = container.volumeMounts?.find((m) => m.name === volume?.name);
    expect(container.args).toContain(`--config=${mount?.mountPath}/otel-collector.yaml`);
    expect(container.env?.find((e) => e.name === 'MY_POD_IP')?.valueFrom?.fieldRef?.fieldPath).toBe('status.podIP');
    expect(container.ports?.map((p) => p.containerPort)).toEqual(expect.arrayContaining([4317, 4318, 13133]));
    expect(pod.serviceAccountName).toBe('otel-collector');
    // The image is the contrib release of the components the test validated the config with.
    const release = /^ {2}version: (\S+)$/m.exec(
      readFileSync(join(ROOT, 'deploy/local/otelcol/builder-config.yaml'), 'utf8'),
    )?.[1];
    expect(container.image).toBe(`otel/opentelemetry-collector-contrib:${release}`);
    const service = objects().find(({ object }) => object.kind === 'Service')!.object as unknown as {
      spec: { ports: Array<{ port: number }> };
    };
    expect(service.spec.ports.map((p) => p.port).sort()).toEqual([4317, 4318]);
  });
});
