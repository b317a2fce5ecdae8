import { Type } from '@platform/http';
import { BitlyTime } from '../../schemas.js';
import { envelope } from '../../metrics/schemas.js';
import { qrCodeMetric } from './qr-code-metric.js';

export const getQrCodeScansRoute = qrCodeMetric({
  suffix: '/scans',
  summary: 'Scans per unit, most recent first',
  withSize: false,
  response: Type.Object({
    scans: Type.Array(Type.Object({ scans: Type.Integer(), date: BitlyTime })),
    units: envelope.units,
    unit: envelope.unit,
    unit_reference: envelope.unit_reference,
  }),
  answer: async ({ scope, query, since }, { analytics }) => {
    const { data, units, unit, unit_reference } = await analytics.series(scope, query, since, 'scans');
    return { scans: data.map((d) => ({ scans: d.count, date: d.ts })), units, unit, unit_reference };
  },
});
