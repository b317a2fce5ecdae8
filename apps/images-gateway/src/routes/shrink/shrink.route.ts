import { randomBytes } from 'node:crypto';
import { MessageTypeNames } from '@platform/contracts';
import { InputError } from '@platform/errors';
import type { HttpApp } from '@platform/http';
import { IMAGE_ERRORS, detectImageType } from '@platform/images';
import { setCompressionCount } from '../../compression-count.js';
import type { GatewayDeps } from '../../deps.js';
import { assertUnderQuota } from '../../quota.js';
import { ShrinkBody, ShrinkResult, errorResponses, security } from '../../schemas.js';

/** Output ids are opaque and unguessable: an output is reachable by its URL alone (with the account's key). */
export function newOutputId(): string {
  return randomBytes(24).toString('base64url');
}

/** The JSON body's source URL; its shape and scheme are the route schema's to check, its syntax is checked here. */
function sourceUrl(body: { source: { url: string } }): string {
  if (!URL.canParse(body.source.url)) throw new InputError('bad_request', 'source.url is not a valid URL.');
  return new URL(body.source.url).toString();
}

export function shrinkRoute(app: HttpApp, deps: GatewayDeps) {
  app.post(
    '/shrink',
    {
      bodyLimit: deps.uploadLimitBytes,
      schema: {
        summary: 'Compress an image (raw body) or the image at a URL ({"source": {"url"}})',
        tags: ['images'],
        security,
        body: ShrinkBody,
        response: { 201: ShrinkResult, ...errorResponses },
      },
    },
    async (request, reply) => {
      const accountId = request.accountId!;
      const body: unknown = request.body;
      const outputId = newOutputId();
      let input: { input_key: string | null; source_url: string | null };
      if (body === undefined || body === null || (Buffer.isBuffer(body) && body.length === 0)) {
        throw IMAGE_ERRORS.inputMissing();
      } else if (Buffer.isBuffer(body)) {
        if (!detectImageType(body)) throw IMAGE_ERRORS.unsupportedType();
        input = { input_key: outputId, source_url: null };
      } else {
        input = { input_key: null, source_url: sourceUrl(body as { source: { url: string } }) };
      }
      await assertUnderQuota(deps, accountId, 1);
      if (Buffer.isBuffer(body)) await deps.outputs.putUpload(outputId, body);
      const result = await deps.commands.send(MessageTypeNames.CompressImage, outputId, {
        output_id: outputId,
        account_id: accountId,
        ...input,
      });
      const url = `${deps.publicBaseUrl}/output/${outputId}`;
      setCompressionCount(reply, result.compression_count);
      return reply
        .code(201)
        .header('location', url)
        .send({
          input: result.input,
          output: {
            ...result.output,
            ratio: Math.round((result.output.size / result.input.size) * 10_000) / 10_000,
            url,
          },
        });
    },
  );
}
