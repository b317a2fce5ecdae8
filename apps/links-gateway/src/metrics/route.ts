import type { MetricsQuery, Scope, Since } from '@platform/analytics';
import type { TSchema } from '@platform/http';
import type { RouteDeps } from '../deps.js';
import { errorResponses, security } from '../schemas.js';
import { ListMetricsQuerystring, MetricsQuerystring, metricsQueryOf } from './query.js';

/** What a metric is of: the buckets' scope, and when it began (where `units=-1` starts). */
export interface Target {
  /** The organization whose records the metric is of. */
  organizationId: string;
  scope: Scope;
  began: number;
}

/** What an operation answers from: the target's buckets, the query, and where `units=-1` starts. */
export interface Metric {
  organizationId: string;
  scope: Scope;
  query: MetricsQuery;
  since: Since;
}

/** One metrics operation: its path after the target's, its words, whether it takes `size`, and its answer. */
export interface MetricSpec {
  suffix: string;
  summary: string;
  withSize: boolean;
  response: TSchema;
  answer: (metric: Metric, deps: RouteDeps) => Promise<unknown>;
}

export function metricSchema<P extends TSchema>(spec: MetricSpec, params: P) {
  return {
    summary: spec.summary,
    tags: ['metrics'],
    security,
    params,
    querystring: spec.withSize ? ListMetricsQuerystring : MetricsQuerystring,
    response: { 200: spec.response, ...errorResponses },
  };
}

export function answerMetric(spec: MetricSpec, target: Target, raw: MetricsQuerystring, deps: RouteDeps) {
  const query = metricsQueryOf(raw);
  const since = query.units === -1 ? { began: target.began } : null;
  return spec.answer({ organizationId: target.organizationId, scope: target.scope, query, since }, deps);
}
