import { Type } from '@platform/http';
import type { LinksRoute } from '../../deps.js';
import { answerMetric, metricSchema, type MetricSpec } from '../../metrics/route.js';
import { Faceted } from '../../metrics/schemas.js';
import { linkTarget } from './shortlink-metric.js';

const spec: MetricSpec = {
  suffix: '/clicks_by_destination',
  summary: 'Clicks of a custom short link by each of its destinations over time',
  withSize: false,
  response: Faceted('destinations', {
    clicks: Type.Integer(),
    value: Type.String({ description: 'The long URL the clicks were sent to' }),
  }),
  // Every destination: a custom link has few, and the operation takes no size.
  answer: ({ scope, query, since }, { analytics }) =>
    analytics.faceted(scope, query, since, {
      kind: 'clicks',
      facet: 'destination',
      name: 'destinations',
      limit: false,
    }),
};

const KeywordParams = Type.Object({
  domain: Type.String({ minLength: 1, maxLength: 253 }),
  keyword: Type.String({ minLength: 1, maxLength: 100 }),
});

/** A custom short link's clicks by destination, under `/v4/custom_shortlinks` and `/v4/custom_bitlinks`. */
export const getClicksByDestinationRoute: LinksRoute = (app, deps) => {
  for (const base of ['/v4/custom_shortlinks', '/v4/custom_bitlinks'])
    app.get(
      `${base}/:domain/:keyword${spec.suffix}`,
      { schema: metricSchema(spec, KeywordParams) },
      async (request) => {
        const { domain, keyword } = request.params;
        return answerMetric(
          spec,
          await linkTarget(deps, request.caller!, `${domain}/${keyword}`, true),
          request.query,
          deps,
        );
      },
    );
};
