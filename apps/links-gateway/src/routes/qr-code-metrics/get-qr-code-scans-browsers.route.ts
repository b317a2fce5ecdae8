import { Type } from '@platform/http';
import { Faceted } from '../../metrics/schemas.js';
import { qrCodeMetric } from './qr-code-metric.js';

export const getQrCodeScansBrowsersRoute = qrCodeMetric({
  suffix: '/scans/browsers',
  summary: 'Scans by browser',
  withSize: true,
  response: Faceted('browsers', { scans: Type.Integer(), value: Type.String() }),
  answer: ({ scope, query, since }, { analytics }) =>
    analytics.faceted(scope, query, since, { kind: 'scans', facet: 'browser', name: 'browsers' }),
});
