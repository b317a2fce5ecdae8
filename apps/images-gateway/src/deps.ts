import type { Accounts } from '@platform/accounts';
import type { CompressionCounts, OutputStore } from '@platform/images';
import type { CommandBus } from '@platform/kafka';

export interface GatewayDeps {
  accounts: Accounts;
  commands: CommandBus;
  outputs: OutputStore;
  counts: CompressionCounts;
  sealer: { seal(plaintext: string): string };
  publicBaseUrl: string;
  commandTimeoutMs: number;
  uploadLimitBytes: number;
  monthlyQuota: number;
}
