import { NotFoundError } from '@platform/errors';
import type { HttpApp } from '@platform/http';
import type { GatewayDeps } from '../../deps.js';
import { OutputParams, errorResponses, imageResponse, security } from '../../schemas.js';

export const outputNotFound = () => new NotFoundError('output_not_found', 'The output does not exist or has expired.');

export function getOutputRoute(app: HttpApp, deps: GatewayDeps) {
  app.get(
    '/output/:id',
    {
      schema: {
        summary: 'Download a compressed image',
        tags: ['images'],
        security,
        params: OutputParams,
        response: { 200: imageResponse('The compressed image; its type in Content-Type.'), ...errorResponses },
      },
    },
    async (request, reply) => {
      const record = await deps.outputs.getOutput(request.accountId!, request.params.id);
      const data = record ? await deps.outputs.getOutputData(record.output_id) : null;
      if (!record || !data) throw outputNotFound();
      return reply
        .header('content-type', record.type)
        .header('content-length', String(data.length))
        .header('image-width', String(record.width))
        .header('image-height', String(record.height))
        .send(data);
    },
  );
}
