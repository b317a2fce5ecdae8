import { Type } from '@platform/http';
import { Faceted } from '../../metrics/schemas.js';
import { qrCodeMetric } from './qr-code-metric.js';

export const getQrCodeScansCountriesRoute = qrCodeMetric({
  suffix: '/scans/countries',
  summary: 'Scans by country (ISO 3166-1 alpha-2)',
  withSize: true,
  response: Faceted('countries', { scans: Type.Integer(), value: Type.String({ description: 'ISO 3166-1 alpha-2' }) }),
  answer: ({ scope, query, since }, { analytics }) =>
    analytics.faceted(scope, query, since, { kind: 'scans', facet: 'country', name: 'countries' }),
});
