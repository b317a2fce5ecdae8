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
  raw: Record<string, string>;
}

export function headersToStrings(headers: IHeaders | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!headers) return out;
  for (const key in headers) {
    const value = headers[key];
    if (value === undefined) continue;
    const first = Array.isArray(value) ? value[0] : value;
    if (first !== undefined) out[key] = first.toString();
  }
  return out;
}

export function readHeaders(headers: IHeaders | undefined): MessageMeta | undefined {
  const raw = headersToStrings(headers);
  const id = raw[HEADERS.id];
  const type = raw[HEADERS.type];
  const schema = raw[HEADERS.schema];
  if (!id || !type || !schema) return undefined;
  const meta: MessageMeta = {
    id,
    type,
    schema,
    source: raw[HEADERS.source] ?? 'unknown',
    time: raw[HEADERS.time] ?? '',
    raw,
  };
  if (raw[HEADERS.correlationId]) meta.correlationId = raw[HEADERS.correlationId];
  if (raw[HEADERS.replyTo]) meta.replyTo = raw[HEADERS.replyTo];
  const deadline = Number(raw[HEADERS.deadline]);
  if (Number.isFinite(deadline) && deadline > 0) meta.deadline = deadline;
  return meta;
}
