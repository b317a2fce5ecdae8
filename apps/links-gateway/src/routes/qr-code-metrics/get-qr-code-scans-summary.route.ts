import { Type } from '@platform/http';
import { envelope } from '../../metrics/schemas.js';
import { qrCodeMetric } from './qr-code-metric.js';

export const getQrCodeScansSummaryRoute = qrCodeMetric({
  suffix: '/scans/summary',
  summary: 'Scans over the units, in total',
  withSize: false,
  response: Type.Object({
    total_scans: Type.Integer(),
    units: envelope.units,
    unit: envelope.unit,
    unit_reference: envelope.unit_reference,
  }),
  answer: async ({ scope, query, since }, { analytics }) => {
    const { engagements, units, unit, unit_reference } = await analytics.engagementsSummary(scope, query, since);
    return { total_scans: engagements.scans, units, unit, unit_reference };
  },
});
