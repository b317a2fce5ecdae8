import { Type } from '@platform/http';
import { Faceted } from '../../metrics/schemas.js';
import { groupMetric } from './group-metric.js';

export const getGroupReferrersRoute = groupMetric({
  suffix: '/referrers',
  summary: "Clicks on the group's links by referring page",
  withSize: true,
  response: Faceted('referrers', {
    clicks: Type.Integer(),
    value: Type.String({ description: 'The referring page, or direct' }),
  }),
  answer: ({ scope, query, since }, { analytics }) =>
    analytics.faceted(scope, query, since, { kind: 'clicks', facet: 'referrer', name: 'referrers' }),
});
