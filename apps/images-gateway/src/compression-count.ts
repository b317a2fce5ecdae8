import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Accounts } from '@platform/accounts';
import type { CompressionCounts } from '@platform/images';
import { accountOf } from './auth.js';

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

/**
 * The router refuses an over-long path (414) before any route hook runs, authentication included: the caller is
 * identified for that answer alone, so that it carries Compression-Count like every other answer.
 */
export function frameworkErrorCount(accounts: Accounts, counts: CompressionCounts) {
  return async (request: FastifyRequest): Promise<Record<string, string>> => {
    const accountId = await accountOf(accounts, request.headers.authorization);
    if (!accountId) return {};
    return { 'compression-count': String(await counts.current(accountId)) };
  };
}
