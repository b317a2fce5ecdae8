import { Cities } from '../../metrics/schemas.js';
import { qrCodeMetric } from './qr-code-metric.js';

export const getQrCodeScansCitiesRoute = qrCodeMetric({
  suffix: '/scans/cities',
  summary: 'Scans by city',
  withSize: true,
  response: Cities('scans'),
  answer: ({ scope, query, since }, { analytics }) => analytics.cities(scope, query, since, 'scans'),
});
