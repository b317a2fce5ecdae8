import { Type } from '@platform/http';
import { Faceted } from '../../metrics/schemas.js';
import { shortlinkMetric } from './shortlink-metric.js';

export const getShortlinkDevicesRoute = shortlinkMetric({
  suffix: '/devices',
  summary: 'Clicks by device type',
  withSize: true,
  response: Faceted('devices', {
    clicks: Type.Integer(),
    device_type: Type.String({ description: 'Desktop, Mobile, Tablet, ...' }),
  }),
  answer: ({ scope, query, since }, { analytics }) =>
    analytics.faceted(scope, query, since, { kind: 'clicks', facet: 'device', name: 'devices', item: 'device_type' }),
});
