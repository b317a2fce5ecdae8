import { Series } from '../../metrics/schemas.js';
import { groupMetric } from './group-metric.js';

export const getGroupEngagementsOverTimeRoute = groupMetric({
  suffix: '/engagements/over_time',
  summary: "The group's engagements per unit, most recent first",
  withSize: false,
  response: Series,
  answer: ({ scope, query, since }, { analytics }) => analytics.series(scope, query, since, 'engagements'),
});
