import type { EgressClient } from '@platform/egress';
import type { CompressionCounts, ImageLimits, OutputStore, StoreEndpoints } from '@platform/images';

export interface HandlerDeps {
  outputs: OutputStore;
  counts: CompressionCounts;
  egress: EgressClient;
  sealer: { open(sealed: string): string };
  limits: ImageLimits;
  monthlyQuota: number;
  source: { maxBytes: number; timeoutMs: number };
  storeEndpoints: StoreEndpoints;
}
