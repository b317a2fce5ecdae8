import { Series } from '../../metrics/schemas.js';
import { groupMetric } from './group-metric.js';

export const getGroupClicksRoute = groupMetric({
  suffix: '/clicks',
  summary: "The group's clicks per unit, most recent first",
  withSize: false,
  response: Series,
  answer: ({ scope, query, since }, { analytics }) => analytics.series(scope, query, since, 'clicks'),
});
