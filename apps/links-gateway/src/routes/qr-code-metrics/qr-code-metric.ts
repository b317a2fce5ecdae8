import { NotFoundError } from '@platform/errors';
import { Type } from '@platform/http';
import type { LinksRoute } from '../../deps.js';
import { metricLookups } from '../../metrics/lookups.js';
import { answerMetric, metricSchema, type MetricSpec } from '../../metrics/route.js';

const QrCodeParams = Type.Object({ qrcode_id: Type.String({ minLength: 1, maxLength: 100 }) });

/** A metric of a QR code's scans (redirects through its `?qr=` URL), under `/v4/qr-codes/:qrcode_id`. */
export function qrCodeMetric(spec: MetricSpec): LinksRoute {
  return (app, deps) => {
    app.get(`/v4/qr-codes/:qrcode_id${spec.suffix}`, { schema: metricSchema(spec, QrCodeParams) }, async (request) => {
      const lookups = metricLookups(deps.store);
      const qr = await lookups.qrCode(request.caller!, request.params.qrcode_id);
      if (!qr) throw new NotFoundError('NOT_FOUND', 'No such QR code.');
      await lookups.access(request.caller!, qr.group_guid);
      const target = {
        organizationId: qr.organization_id,
        scope: { kind: 'qr' as const, key: qr._id },
        began: qr.created_at.getTime(),
      };
      return answerMetric(spec, target, request.query, deps);
    });
  };
}
