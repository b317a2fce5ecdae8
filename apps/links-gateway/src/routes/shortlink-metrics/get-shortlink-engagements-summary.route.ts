import { Type } from '@platform/http';
import { EngagementCounts, envelope } from '../../metrics/schemas.js';
import { shortlinkMetric } from './shortlink-metric.js';

export const getShortlinkEngagementsSummaryRoute = shortlinkMetric({
  suffix: '/engagements/summary',
  summary: 'Engagements over the units, in total',
  withSize: false,
  response: Type.Object({ total_engagements: Type.Integer(), engagements: EngagementCounts, ...envelope }),
  answer: ({ scope, query, since }, { analytics }) => analytics.engagementsSummary(scope, query, since),
});
