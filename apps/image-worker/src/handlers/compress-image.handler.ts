import type { MessageTypeNames } from '@platform/contracts';
import { InputError, NotFoundError } from '@platform/errors';
import { compressImage, type CompressedReply } from '@platform/images';
import type { IncomingMessage } from '@platform/kafka';
import type { HandlerDeps } from './deps.js';
import { fetchSource } from './fetch-source.js';

/**
 * Redone from the start after a crash: the output is written again under the same id and the charge is
 * deduplicated by command id, so the client sees one output and one compression.
 */
export async function compressImageHandler(
  deps: HandlerDeps,
  message: IncomingMessage<(typeof MessageTypeNames)['CompressImage']>,
): Promise<CompressedReply> {
  const v = message.value;
  let inputKey: string;
  let input: Buffer | null;
  if (v.input_key) {
    inputKey = v.input_key;
    input = await deps.outputs.getUpload(inputKey);
    if (!input) throw new NotFoundError('upload_expired', 'The upload is no longer available; send it again.');
  } else if (v.source_url) {
    inputKey = v.output_id;
    input = await fetchSource(deps, v.source_url);
  } else {
    throw new InputError('input_missing', 'Input is missing.');
  }
  const { input: seen, output } = await compressImage(input, deps.limits);
  await message.heartbeat();
  if (!v.input_key) await deps.outputs.putUpload(inputKey, input);
  await deps.outputs.putOutput(
    {
      output_id: v.output_id,
      account_id: v.account_id,
      input_key: inputKey,
      input_type: seen.type,
      input_size: input.length,
      type: output.type,
      size: output.data.length,
      width: output.width,
      height: output.height,
      created_at: new Date(v.requested_at).toISOString(),
    },
    output.data,
  );
  const count = await deps.counts.charge({
    accountId: v.account_id,
    requestedAt: v.requested_at,
    commandId: message.meta.id,
    compressions: 1,
    quota: deps.monthlyQuota,
    event: {
      output_id: v.output_id,
      operation: 'shrink',
      input_type: seen.type,
      input_size: input.length,
      output_type: output.type,
      output_size: output.data.length,
    },
  });
  return {
    input: { size: input.length, type: seen.type },
    output: { size: output.data.length, type: output.type, width: output.width, height: output.height },
    compression_count: count,
  };
}
