import type { IHeaders } from 'kafkajs';

/** CloudEvents-style metadata travels in headers; the body is the Avro record alone. */
export const HEADERS = {
  id: 'ce_id',
  type: 'ce_type',
  source: 'ce_source',
  time: 'ce_time',
  schema: 'ce_schema',
  /** Only on a body in the Confluent wire format: the registry id it starts with (`ce_schema` still names the schema). */
  registryId: 'schema_registry_id',
  traceparent: 'traceparent',
  tracestate: 'tracestate',
  correlationId: 'correlation_id',
  replyTo: 'reply_to',
  deadline: 'deadline',
  attempt: 'attempt',
  error: 'error',
} as const;

export interface MessageMeta {
  id: string;
  type: string;
  source: string;
  time: string;
  schema: string;
  correlationId?: string;
  replyTo?: string;
  /** Epoch milliseconds after which the sender no longer waits for a reply. */
  deadline?: number;
  /** The `schema_registry_id` header: the body is in the Confluent wire format, framed with this registry id. */
  registryId?: string;
  /** Every header, as strings. */
  raw: Record<string, string>;
}

export function headersToStrings(headers: IHeaders | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!headers) return out;
  for (const key in headers) {
    const value = headerString(headers, key);
    if (value !== undefined) out[key] = value;
  }
  return out;
}

/** A header's first value as a string. */
function headerString(headers: IHeaders, key: string): string | undefined {
  const value = headers[key];
  if (value === undefined) return undefined;
  const first = Array.isArray(value) ? value[0] : value;
  return first === undefined ? undefined : first.toString();
}

/**
 * The metadata of a received message: the headers it is routed and decoded by (id, type, schema) are read at
 * once, the others (`source`, `time`, `raw`: tracing, anything a producer added) only when asked for. A consumer
 * of a busy topic reads millions of messages a minute, most of whose headers nothing looks at.
 */
class ReceivedMeta implements MessageMeta {
  readonly #headers: IHeaders;
  #raw: Record<string, string> | undefined;
  #source: string | undefined;
  #time: string | undefined;
  correlationId?: string;
  replyTo?: string;
  deadline?: number;
  registryId?: string;

  constructor(
    headers: IHeaders,
    readonly id: string,
    readonly type: string,
    readonly schema: string,
  ) {
    this.#headers = headers;
  }

  get source(): string {
    return (this.#source ??= headerString(this.#headers, HEADERS.source) ?? 'unknown');
  }

  get time(): string {
    return (this.#time ??= headerString(this.#headers, HEADERS.time) ?? '');
  }

  get raw(): Record<string, string> {
    return (this.#raw ??= headersToStrings(this.#headers));
  }

  /** What a log line or `JSON.stringify` shows: the fields as they were when all were read at once (`raw` aside). */
  toJSON(): Omit<MessageMeta, 'raw'> {
    const { id, type, schema, source, time, correlationId, replyTo, deadline, registryId } = this;
    return {
      id,
      type,
      schema,
      source,
      time,
      ...(correlationId !== undefined && { correlationId }),
      ...(replyTo !== undefined && { replyTo }),
      ...(deadline !== undefined && { deadline }),
      ...(registryId !== undefined && { registryId }),
    };
  }
}

export function readHeaders(headers: IHeaders | undefined): MessageMeta | undefined {
  if (!headers) return undefined;
  const id = headerString(headers, HEADERS.id);
  const type = headerString(headers, HEADERS.type);
  const schema = headerString(headers, HEADERS.schema);
  if (!id || !type || !schema) return undefined;
  const meta = new ReceivedMeta(headers, id, type, schema);
  const registryId = headerString(headers, HEADERS.registryId);
  if (registryId !== undefined) meta.registryId = registryId;
  const correlationId = headerString(headers, HEADERS.correlationId);
  if (correlationId) meta.correlationId = correlationId;
  const replyTo = headerString(headers, HEADERS.replyTo);
  if (replyTo) meta.replyTo = replyTo;
  const deadline = Number(headerString(headers, HEADERS.deadline));
  if (Number.isFinite(deadline) && deadline > 0) meta.deadline = deadline;
  return meta;
}
