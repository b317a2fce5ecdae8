import type { EgressClient } from '@platform/egress';
import type { CompressionCounts, DecodeLimits, OutputStore, StoreEndpoints } from '@platform/images';

export interface HandlerDeps {
  outputs: OutputStore;
  counts: CompressionCounts;
  egress: EgressClient;
  sealer: { open(sealed: string): string };
  limits: DecodeLimits;
  monthlyQuota: number;
  source: { maxBytes: number; timeoutMs: number };
  storeEndpoints: StoreEndpoints;
}
