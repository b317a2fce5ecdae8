import { Type } from '@platform/http';
import { BitlyTime } from '../../schemas.js';
import { envelope } from '../../metrics/schemas.js';
import { groupMetric } from './group-metric.js';

export const getGroupShortenCountsRoute = groupMetric({
  suffix: '/shorten_counts',
  summary: 'Short links created in the group per unit',
  withSize: false,
  response: Type.Object({
    unit: envelope.unit,
    units: envelope.units,
    facet: Type.Literal('shorten_counts'),
    unit_reference: envelope.unit_reference,
    metrics: Type.Array(
      Type.Object({ key: BitlyTime, value: Type.Integer({ description: 'Links created in the unit' }) }),
    ),
  }),
  answer: ({ scope, query, since }, { analytics }) => analytics.shortenCounts(scope, query, since),
});
