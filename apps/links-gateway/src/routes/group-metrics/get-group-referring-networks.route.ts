import { Type } from '@platform/http';
import { Faceted } from '../../metrics/schemas.js';
import { groupMetric } from './group-metric.js';

export const getGroupReferringNetworksRoute = groupMetric({
  suffix: '/referring_networks',
  summary: "Clicks on the group's links by referring network (twitter, facebook, ..., other, direct)",
  withSize: true,
  response: Faceted('referring_networks', { clicks: Type.Integer(), value: Type.String() }),
  answer: ({ scope, query, since }, { analytics }) =>
    analytics.faceted(scope, query, since, { kind: 'clicks', facet: 'referring_network', name: 'referring_networks' }),
});
