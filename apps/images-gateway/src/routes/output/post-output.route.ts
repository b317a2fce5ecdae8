import { randomUUID } from 'node:crypto';
import { MessageTypeNames } from '@platform/contracts';
import { InternalError } from '@platform/errors';
import type { HttpApp } from '@platform/http';
import { compressionsFor, parseOutputOptions, renderOptionsRecord } from '@platform/images';
import { setCompressionCount } from '../../compression-count.js';
import type { GatewayDeps } from '../../deps.js';
import { assertUnderQuota } from '../../quota.js';
import { OutputOptionsBody, OutputParams, errorResponses, imageResponse, security } from '../../schemas.js';
import { outputNotFound } from './get-output.route.js';

export function postOutputRoute(app: HttpApp, deps: GatewayDeps) {
  app.post(
    '/output/:id',
    {
      bodyLimit: 64 * 1024,
      schema: {
        summary: 'Resize, convert, preserve metadata of, or store a compressed image',
        tags: ['images'],
        security,
        params: OutputParams,
        body: OutputOptionsBody,
        response: {
          200: imageResponse(
            "The transformed image, its type in Content-Type; or, for a store request, no body and the stored object's address in Location.",
          ),
          ...errorResponses,
        },
      },
    },
    async (request, reply) => {
      const accountId = request.accountId!;
      // The schema judged the options; this reads them into the domain's form (aliases, colours, credentials).
      const options = parseOutputOptions(request.body);
      const record = await deps.outputs.getOutput(accountId, request.params.id);
      if (!record) throw outputNotFound();
      await assertUnderQuota(deps, accountId, compressionsFor(options));
      // Provider credentials travel sealed; everything else as a typed record.
      const { store, ...rest } = options;
      const commandId = randomUUID();
      const result = await deps.commands.send(
        MessageTypeNames.RenderOutputV2,
        record.output_id,
        {
          output_id: record.output_id,
          account_id: accountId,
          result_key: commandId,
          options: renderOptionsRecord(rest),
          store_sealed: store === undefined ? null : deps.sealer.seal(JSON.stringify(store)),
        },
        { commandId },
      );
      setCompressionCount(reply, result.compression_count);
      void reply.header('image-width', String(result.width)).header('image-height', String(result.height));
      if (result.location) return reply.header('location', result.location).send(undefined);
      const stored = await deps.outputs.getResult(commandId);
      if (!stored) throw new InternalError('result_missing', 'The rendered image is no longer available.');
      return reply
        .header('content-type', stored.result.type)
        .header('content-length', String(stored.data.length))
        .send(stored.data);
    },
  );
}
