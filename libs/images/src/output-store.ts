import type { Redis } from '@platform/redis';
import type { ImageType } from './media-types.js';

/** What GET /output/<id> serves and POST /output/<id> works from. */
export interface OutputRecord {
  output_id: string;
  account_id: string;
  /** Where the original upload is kept (resize, convert and preserve start from it). */
  input_key: string;
  input_type: ImageType;
  input_size: number;
  type: ImageType;
  size: number;
  width: number;
  height: number;
  created_at: string;
}

export interface RenderedResult {
  type: ImageType;
  width: number;
  height: number;
  size: number;
}

export interface OutputStore {
  /** The raw upload, before the command that compresses it runs. */
  putUpload(key: string, data: Buffer): Promise<void>;
  getUpload(key: string): Promise<Buffer | null>;
  putOutput(record: OutputRecord, data: Buffer): Promise<void>;
  /** The record, for the account that owns it only. */
  getOutput(accountId: string, outputId: string): Promise<OutputRecord | null>;
  getOutputData(outputId: string): Promise<Buffer | null>;
  putResult(key: string, result: RenderedResult, data: Buffer): Promise<void>;
  getResult(key: string): Promise<{ result: RenderedResult; data: Buffer } | null>;
  /** Notes that the account's upload with this content digest made this output (kept as long as outputs are). */
  rememberUpload(accountId: string, digest: string, outputId: string): Promise<void>;
  /** The output an earlier identical upload of the account made, if it is still there. */
  findUpload(accountId: string, digest: string): Promise<OutputRecord | null>;
  retentionSeconds: number;
}

const keys = {
  upload: (id: string) => `images:upload:${id}`,
  meta: (id: string) => `images:output:${id}`,
  data: (id: string) => `images:output-data:${id}`,
  result: (key: string) => `images:result:${key}`,
  resultMeta: (key: string) => `images:result-meta:${key}`,
  uploadDigest: (accountId: string, digest: string) => `images:upload-digest:${accountId}:${digest}`,
};

/**
 * Uploads, outputs and rendered results live in Redis with a TTL, so any gateway replica serves any
 * output and nothing needs sweeping. The upload is kept as long as its output: resize, convert and
 * preserve start again from the original. Results of POST /output are only kept long enough for the
 * waiting gateway (or a retry of the same command) to read them.
 */
export function createOutputStore(
  redis: Redis,
  options: { retentionSeconds: number; resultSeconds?: number },
): OutputStore {
  const ttl = options.retentionSeconds;
  const resultTtl = options.resultSeconds ?? 600;
  const store: OutputStore = {
    retentionSeconds: ttl,
    async putUpload(key, data) {
      await redis.set(keys.upload(key), data, 'EX', ttl);
    },
    getUpload: (key) => redis.getBuffer(keys.upload(key)),
    async putOutput(record, data) {
      await redis
        .multi()
        .set(keys.data(record.output_id), data, 'EX', ttl)
        .set(keys.meta(record.output_id), JSON.stringify(record), 'EX', ttl)
        .expire(keys.upload(record.input_key), ttl)
        .exec();
    },
    async getOutput(accountId, outputId) {
      if (!/^[A-Za-z0-9_-]{1,100}$/.test(outputId)) return null;
      const raw = await redis.get(keys.meta(outputId));
      if (!raw) return null;
      const record = JSON.parse(raw) as OutputRecord;
      return record.account_id === accountId ? record : null;
    },
    getOutputData: (outputId) => redis.getBuffer(keys.data(outputId)),
    async putResult(key, result, data) {
      await redis
        .multi()
        .set(keys.result(key), data, 'EX', resultTtl)
        .set(keys.resultMeta(key), JSON.stringify(result), 'EX', resultTtl)
        .exec();
    },
    async getResult(key) {
      const [data, meta] = await Promise.all([redis.getBuffer(keys.result(key)), redis.get(keys.resultMeta(key))]);
      return data && meta ? { result: JSON.parse(meta) as RenderedResult, data } : null;
    },
    async rememberUpload(accountId, digest, outputId) {
      await redis.set(keys.uploadDigest(accountId, digest), outputId, 'EX', ttl);
    },
    async findUpload(accountId, digest) {
      const outputId = await redis.get(keys.uploadDigest(accountId, digest));
      return outputId ? store.getOutput(accountId, outputId) : null;
    },
  };
  return store;
}
