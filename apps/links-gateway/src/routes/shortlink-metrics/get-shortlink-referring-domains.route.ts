import { Type } from '@platform/http';
import { Faceted } from '../../metrics/schemas.js';
import { shortlinkMetric } from './shortlink-metric.js';

export const getShortlinkReferringDomainsRoute = shortlinkMetric({
  suffix: '/referring_domains',
  summary: 'Clicks by referring domain, or direct',
  withSize: true,
  response: Faceted('referring_domains', { clicks: Type.Integer(), value: Type.String() }),
  answer: ({ scope, query, since }, { analytics }) =>
    analytics.faceted(scope, query, since, { kind: 'clicks', facet: 'referring_domain', name: 'referring_domains' }),
});
