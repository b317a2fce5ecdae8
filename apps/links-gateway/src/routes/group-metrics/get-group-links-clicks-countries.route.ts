import { Type } from '@platform/http';
import { Faceted } from '../../metrics/schemas.js';
import { groupMetric } from './group-metric.js';

export const getGroupLinksClicksCountriesRoute = groupMetric({
  suffix: '/links/clicks/countries',
  summary: "Clicks on the group's links by country",
  withSize: true,
  response: Faceted('countries', { clicks: Type.Integer(), value: Type.String({ description: 'ISO 3166-1 alpha-2' }) }),
  answer: ({ scope, query, since }, { analytics }) =>
    analytics.faceted(scope, query, since, { kind: 'clicks', facet: 'country', name: 'countries' }),
});
