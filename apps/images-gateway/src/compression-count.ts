import type { FastifyReply, FastifyRequest } from 'fastify';
import type { CompressionCounts } from '@platform/images';

/** Handlers that know the fresh count (from the worker's reply) set it; every other response reads it. */
export function setCompressionCount(reply: FastifyReply, count: number): void {
  void reply.header('compression-count', String(count));
}

export function compressionCountHeader(counts: CompressionCounts) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    if (!request.accountId || reply.hasHeader('compression-count')) return;
    const count = await counts.current(request.accountId).catch(() => undefined);
    if (count !== undefined) setCompressionCount(reply, count);
  };
}
