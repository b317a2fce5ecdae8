import { Series } from '../../metrics/schemas.js';
import { groupMetric } from './group-metric.js';

export const getGroupLinksClicksOverTimeRoute = groupMetric({
  suffix: '/links/clicks/over_time',
  summary: "Clicks on the group's links per unit, most recent first",
  withSize: false,
  response: Series,
  answer: ({ scope, query, since }, { analytics }) => analytics.series(scope, query, since, 'clicks'),
});
