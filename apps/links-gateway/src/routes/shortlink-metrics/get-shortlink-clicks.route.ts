import { Type } from '@platform/http';
import { BitlyTime } from '../../schemas.js';
import { envelope } from '../../metrics/schemas.js';
import { shortlinkMetric } from './shortlink-metric.js';

export const getShortlinkClicksRoute = shortlinkMetric({
  suffix: '/clicks',
  summary: 'Clicks per unit, most recent first (scans are engagements, not clicks)',
  withSize: false,
  response: Type.Object({
    link_clicks: Type.Array(Type.Object({ clicks: Type.Integer(), date: BitlyTime })),
    ...envelope,
  }),
  async answer({ scope, query, since }, { analytics }) {
    const { data, ...rest } = await analytics.series(scope, query, since, 'clicks');
    return { link_clicks: data.map(({ ts, count }) => ({ clicks: count, date: ts })), ...rest };
  },
});
