import { Type } from '@platform/http';
import { envelope } from '../../metrics/schemas.js';
import { shortlinkMetric } from './shortlink-metric.js';

export const getShortlinkReferrersByDomainsRoute = shortlinkMetric({
  suffix: '/referrers_by_domains',
  summary: 'Referring pages grouped by their network',
  withSize: true,
  response: Type.Object({
    ...envelope,
    facet: Type.Literal('referrers_by_domain'),
    referrers_by_domain: Type.Array(
      Type.Object({
        network: Type.String(),
        referrers: Type.Array(
          Type.Object({ key: Type.String({ description: 'The referring page' }), value: Type.Integer() }),
        ),
      }),
    ),
  }),
  answer: ({ scope, query, since }, { analytics }) => analytics.referrersByNetwork(scope, query, since, 'clicks'),
});
