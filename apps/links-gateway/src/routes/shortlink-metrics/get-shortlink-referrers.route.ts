import { Type } from '@platform/http';
import { Faceted } from '../../metrics/schemas.js';
import { shortlinkMetric } from './shortlink-metric.js';

export const getShortlinkReferrersRoute = shortlinkMetric({
  suffix: '/referrers',
  summary: 'Clicks by referring page (without query), or direct',
  withSize: true,
  response: Faceted('referrers', {
    clicks: Type.Integer(),
    value: Type.String({ description: 'The referring page, or direct' }),
  }),
  answer: ({ scope, query, since }, { analytics }) =>
    analytics.faceted(scope, query, since, { kind: 'clicks', facet: 'referrer', name: 'referrers' }),
});
