import { Type } from '@platform/http';
import { Faceted } from '../../metrics/schemas.js';
import { qrCodeMetric } from './qr-code-metric.js';

export const getQrCodeScansDeviceOsRoute = qrCodeMetric({
  suffix: '/scans/device_os',
  summary: 'Scans by device operating system',
  withSize: true,
  response: Faceted('device_os', { scans: Type.Integer(), value: Type.String({ description: 'iOS, Android, ...' }) }),
  answer: ({ scope, query, since }, { analytics }) =>
    analytics.faceted(scope, query, since, { kind: 'scans', facet: 'os', name: 'device_os' }),
});
