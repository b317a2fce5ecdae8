import { Type } from '@platform/http';
import { BitlyTime } from '../../schemas.js';
import { EngagementCounts, envelope } from '../../metrics/schemas.js';
import { shortlinkMetric } from './shortlink-metric.js';

export const getShortlinkEngagementsRoute = shortlinkMetric({
  suffix: '/engagements',
  summary: 'Engagements (clicks, scans, library button clicks) per unit, most recent first',
  withSize: false,
  response: Type.Object({
    engagements: Type.Array(
      Type.Object({ engagement_count: Type.Integer(), engagements: EngagementCounts, date: BitlyTime }),
    ),
    ...envelope,
  }),
  answer: ({ scope, query, since }, { analytics }) => analytics.engagements(scope, query, since),
});
