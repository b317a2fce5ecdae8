import { Type, ref, type HttpApp } from '@platform/http';
import { templatesOfKind } from '@platform/notifications';
import { NotificationTemplate, errorResponses, security } from '../../schemas.js';

/** `/templates/system` and `/templates/custom`: the two kinds of the one template list. */
export function listTemplatesRoute(app: HttpApp) {
  for (const kind of ['system', 'custom'] as const) {
    app.get(
      `/api/v2/notifications/templates/${kind}`,
      {
        schema: {
          summary: `The ${kind} notification templates`,
          tags: ['templates'],
          security,
          response: { 200: Type.Array(ref(NotificationTemplate)), ...errorResponses },
        },
      },
      async () => templatesOfKind(kind),
    );
  }
}
