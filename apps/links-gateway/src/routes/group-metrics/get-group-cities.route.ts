import { Cities } from '../../metrics/schemas.js';
import { groupMetric } from './group-metric.js';

export const getGroupCitiesRoute = groupMetric({
  suffix: '/cities',
  summary: "Clicks on the group's links by city",
  withSize: true,
  response: Cities('clicks'),
  answer: ({ scope, query, since }, { analytics }) => analytics.cities(scope, query, since, 'clicks'),
});
