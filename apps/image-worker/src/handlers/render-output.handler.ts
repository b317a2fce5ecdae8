import type { MessageTypeNames } from '@platform/contracts';
import { NotFoundError } from '@platform/errors';
import {
  compressionsFor,
  outputOptionsOf,
  parseOutputOptions,
  renderOutput,
  storeImage,
  type EncodedImage,
  type GcsStore,
  type OutputOptions,
  type S3Store,
  type OutputRecord,
  type RenderedReply,
  type RenderedResult,
} from '@platform/images';
import type { IncomingMessage } from '@platform/kafka';
import type { HandlerDeps } from './deps.js';

type RenderMessage = IncomingMessage<
  (typeof MessageTypeNames)['RenderOutput'] | (typeof MessageTypeNames)['RenderOutputV2']
>;

const outputNotFound = () => new NotFoundError('output_not_found', 'The output does not exist or has expired.');

/**
 * Resize, convert and preserve start again from the original upload; a bare store sends the compressed
 * output as it is. The result (or the stored object's address) is charged once per command id.
 */
export async function renderOutputV2Handler(
  deps: HandlerDeps,
  message: IncomingMessage<(typeof MessageTypeNames)['RenderOutputV2']>,
): Promise<RenderedReply> {
  const v = message.value;
  const store = v.store_sealed ? (JSON.parse(deps.sealer.open(v.store_sealed)) as S3Store | GcsStore) : null;
  return render(deps, message, outputOptionsOf(v.options, store));
}

/** The deprecated RenderOutput (options as a JSON string, the raw store body sealed), still answered during an upgrade. */
export async function renderOutputHandler(
  deps: HandlerDeps,
  message: IncomingMessage<(typeof MessageTypeNames)['RenderOutput']>,
): Promise<RenderedReply> {
  const v = message.value;
  const raw = JSON.parse(v.options) as Record<string, unknown>;
  if (v.store_sealed) raw['store'] = JSON.parse(deps.sealer.open(v.store_sealed));
  return render(deps, message, parseOutputOptions(raw));
}

async function render(deps: HandlerDeps, message: RenderMessage, options: OutputOptions): Promise<RenderedReply> {
  const v = message.value;
  const record = await deps.outputs.getOutput(v.account_id, v.output_id);
  if (!record) throw outputNotFound();
  const transforms = options.resize || options.convert || options.background || options.preserve;
  const image = transforms ? await rendered(deps, record, options) : await compressedOutput(deps, record);
  await message.heartbeat();
  const result: RenderedResult = {
    type: image.type,
    width: image.width,
    height: image.height,
    size: image.data.length,
  };
  let location: string | null = null;
  if (options.store) {
    location = (await storeImage(deps.egress, options.store, image, deps.storeEndpoints)).location;
  } else {
    await deps.outputs.putResult(v.result_key, result, image.data);
  }
  const count = await deps.counts.charge({
    accountId: v.account_id,
    requestedAt: v.requested_at,
    commandId: message.meta.id,
    compressions: compressionsFor(options),
    quota: deps.monthlyQuota,
    event: {
      output_id: v.output_id,
      operation: options.store ? 'store' : 'output',
      input_type: record.input_type,
      input_size: record.input_size,
      output_type: image.type,
      output_size: image.data.length,
    },
  });
  return { ...result, compression_count: count, location };
}

async function rendered(deps: HandlerDeps, record: OutputRecord, options: OutputOptions): Promise<EncodedImage> {
  const input = await deps.outputs.getUpload(record.input_key);
  if (!input) throw outputNotFound();
  return renderOutput(input, options, deps.limits);
}

async function compressedOutput(deps: HandlerDeps, record: OutputRecord): Promise<EncodedImage> {
  const data = await deps.outputs.getOutputData(record.output_id);
  if (!data) throw outputNotFound();
  return { data, type: record.type, width: record.width, height: record.height };
}
