import { createHash, randomBytes } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import { MessageTypeNames } from '@platform/contracts';
import { InputError } from '@platform/errors';
import type { HttpApp } from '@platform/http';
import { IMAGE_ERRORS, detectImageType, type OutputRecord } from '@platform/images';
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

/** The upload's content digest: an identical upload of the same account is answered from its earlier output. */
const digestOf = (body: Buffer) => createHash('sha256').update(body).digest('base64url');

interface ShrinkAnswer {
  input: { size: number; type: string };
  output: { size: number; type: string; width: number; height: number };
}

const answerOf = (record: OutputRecord): ShrinkAnswer => ({
  input: { size: record.input_size, type: record.input_type },
  output: { size: record.size, type: record.type, width: record.width, height: record.height },
});

export function shrinkRoute(app: HttpApp, deps: GatewayDeps) {
  const created = (reply: FastifyReply, outputId: string, answer: ShrinkAnswer) => {
    const url = `${deps.publicBaseUrl}/output/${outputId}`;
    return reply
      .code(201)
      .header('location', url)
      .send({
        input: answer.input,
        output: {
          ...answer.output,
          ratio: Math.round((answer.output.size / answer.input.size) * 10_000) / 10_000,
          url,
        },
      });
  };
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
      const digest = Buffer.isBuffer(body) ? digestOf(body) : undefined;
      const earlier = digest ? await deps.outputs.findUpload(accountId, digest) : null;
      // Answered as the first time, from the output that still exists: nothing is made, nothing is counted.
      if (earlier) return created(reply, earlier.output_id, answerOf(earlier));
      await assertUnderQuota(deps, accountId, 1);
      if (Buffer.isBuffer(body)) await deps.outputs.putUpload(outputId, body);
      const result = await deps.commands.send(MessageTypeNames.CompressImage, outputId, {
        output_id: outputId,
        account_id: accountId,
        ...input,
      });
      if (digest) await deps.outputs.rememberUpload(accountId, digest, outputId);
      setCompressionCount(reply, result.compression_count);
      return created(reply, outputId, result);
    },
  );
}
