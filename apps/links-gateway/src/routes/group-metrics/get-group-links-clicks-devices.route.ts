import { Type } from '@platform/http';
import { Faceted } from '../../metrics/schemas.js';
import { groupMetric } from './group-metric.js';

export const getGroupLinksClicksDevicesRoute = groupMetric({
  suffix: '/links/clicks/devices',
  summary: "Clicks on the group's links by device type",
  withSize: true,
  // Unlike /devices, the device type is the item's `value`.
  response: Faceted('devices', {
    clicks: Type.Integer(),
    value: Type.String({ description: 'Desktop, Mobile, Tablet, ...' }),
  }),
  answer: ({ scope, query, since }, { analytics }) =>
    analytics.faceted(scope, query, since, { kind: 'clicks', facet: 'device', name: 'devices' }),
});
