import { Type } from '@platform/http';
import { Faceted } from '../../metrics/schemas.js';
import { groupMetric } from './group-metric.js';

export const getGroupDevicesRoute = groupMetric({
  suffix: '/devices',
  summary: "Clicks on the group's links by device type",
  withSize: true,
  response: Faceted('devices', {
    clicks: Type.Integer(),
    device_type: Type.String({ description: 'Desktop, Mobile, Tablet, ...' }),
  }),
  answer: ({ scope, query, since }, { analytics }) =>
    analytics.faceted(scope, query, since, { kind: 'clicks', facet: 'device', name: 'devices', item: 'device_type' }),
});
