import { Type } from '@platform/http';
import { Faceted } from '../../metrics/schemas.js';
import { shortlinkMetric } from './shortlink-metric.js';

export const getShortlinkReferrerNameRoute = shortlinkMetric({
  suffix: '/referrer_name',
  summary: 'Clicks by referrer name (Twitter, Google, a domain), or direct',
  withSize: true,
  response: Faceted('referrer_name', { clicks: Type.Integer(), value: Type.String() }),
  answer: ({ scope, query, since }, { analytics }) =>
    analytics.faceted(scope, query, since, { kind: 'clicks', facet: 'referrer_name', name: 'referrer_name' }),
});
