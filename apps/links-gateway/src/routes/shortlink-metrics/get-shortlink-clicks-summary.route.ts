import { Type } from '@platform/http';
import { envelope } from '../../metrics/schemas.js';
import { shortlinkMetric } from './shortlink-metric.js';

export const getShortlinkClicksSummaryRoute = shortlinkMetric({
  suffix: '/clicks/summary',
  summary: 'Clicks over the units, in total',
  withSize: false,
  response: Type.Object({ total_clicks: Type.Integer(), ...envelope }),
  async answer({ scope, query, since }, { analytics }) {
    const { data, ...rest } = await analytics.series(scope, query, since, 'clicks');
    return { total_clicks: data.reduce((sum, { count }) => sum + count, 0), ...rest };
  },
});
