import { Cities } from '../../metrics/schemas.js';
import { shortlinkMetric } from './shortlink-metric.js';

export const getShortlinkCitiesRoute = shortlinkMetric({
  suffix: '/cities',
  summary: 'Clicks by city, with subregion, region and country',
  withSize: true,
  response: Cities('clicks'),
  answer: ({ scope, query, since }, { analytics }) => analytics.cities(scope, query, since, 'clicks'),
});
