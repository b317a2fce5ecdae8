import { Type } from '@platform/http';
import { Faceted } from '../../metrics/schemas.js';
import { shortlinkMetric } from './shortlink-metric.js';

export const getShortlinkCountriesRoute = shortlinkMetric({
  suffix: '/countries',
  summary: 'Clicks by country (ISO 3166-1 alpha-2)',
  withSize: true,
  response: Faceted('countries', { clicks: Type.Integer(), value: Type.String({ description: 'ISO 3166-1 alpha-2' }) }),
  answer: ({ scope, query, since }, { analytics }) =>
    analytics.faceted(scope, query, since, { kind: 'clicks', facet: 'country', name: 'countries' }),
});
