import type { Accounts, Members } from '@platform/accounts';
import type { CommandBus } from '@platform/kafka';
import type { NotificationsStore } from '@platform/notifications';
import type { WatchHub } from './watch-hub.js';
import type { StreamLimits } from './watch-streams.js';

export interface GatewayDeps {
  accounts: Accounts;
  members: Members;
  store: NotificationsStore;
  commands: CommandBus;
  hub: WatchHub;
  methods: ReadonlyArray<'smtp' | 'webhook'>;
  watch: StreamLimits & { resumeLimit: number };
  onSlowReader: (transport: 'websocket' | 'sse') => void;
}
