import { createAccounts, createMembers, type Accounts, type MemberRecord, type Members } from '@platform/accounts';
import { MessageTypeNames } from '@platform/contracts';
import type { CommandBus, KafkaClient } from '@platform/kafka';
import { createLinksStore, newGroupGuid, type GroupRole, type LinksStore } from '@platform/links';
import type { MongoConnection } from '@platform/mongo';
import { startService } from '@platform/runtime/start';
import { testLogger } from './test-logger.js';
import { freePort, isolatedAppEnv, uniqueName } from '@platform/testing';
// The apps are composed in-process from the same builders their main.ts runs (service.ts), with their own
// configuration read from an isolated environment.
import { config as gatewayConfig } from '../../apps/links-gateway/src/config.js';
import { build as buildGateway } from '../../apps/links-gateway/src/service.js';
import { config as workerConfig } from '../../apps/links-worker/src/config.js';
import { build as buildWorker } from '../../apps/links-worker/src/service.js';
import { config as redirectorConfig } from '../../apps/redirector/src/config.js';
import { build as buildRedirector } from '../../apps/redirector/src/service.js';
import { config as dispatcherConfig } from '../../apps/webhook-dispatcher/src/config.js';
import { build as buildDispatcher } from '../../apps/webhook-dispatcher/src/service.js';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { TEST_SECRETS } from './secrets.js';

export const DEFAULT_DOMAIN = 'sho.rt';

export interface LinksUser {
  user: MemberRecord;
  token: string;
}

export interface LinksStack {
  url: string;
  /** Two redirector replicas (each with its own cache and links.events group). */
  redirectors: [string, string];
  kafka: KafkaClient;
  accounts: Accounts;
  members: Members;
  store: LinksStore;
  mongo: MongoConnection;
  /** A new organization with its default group and its admin (as `cli keys create links`). */
  newOrganization(): Promise<{ organizationId: string; groupGuid: string; admin: LinksUser }>;
  addUser(organizationId: string, groupGuid: string, role: GroupRole, newGroupName?: string): Promise<LinksUser>;
  addDomain(organizationId: string, domain: string, groupGuids: string[], redirectStatus?: 301 | 302): Promise<void>;
  /** A links command as an operator (the CLI) sends it. */
  send: CommandBus['send'];
  close(): Promise<void>;
}

/**
 * links-gateway, links-worker and two redirectors in one process on real Kafka, FerretDB and Redis, isolated by
 * name; with `dispatcher`, the webhook dispatcher too (allowed to reach loopback receivers, retrying quickly).
 */
export async function startLinksStack(
  extraEnv: Record<string, string> = {},
  options: { dispatcher?: boolean } = {},
): Promise<LinksStack> {
  const name = uniqueName('lk');
  const port = await freePort();
  const env = isolatedAppEnv(name, {
    ...TEST_SECRETS,
    PORT: String(port),
    PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
    LINKS_DEFAULT_DOMAIN: DEFAULT_DOMAIN,
    COMMAND_TIMEOUT_MS: '20000',
    OUTBOX_INTERVAL_MS: '200',
    KAFKA_SESSION_TIMEOUT_MS: '6000',
    EGRESS_ALLOW: '127.0.0.0/8',
    WEBHOOK_TIMEOUT_MS: '2000',
    WEBHOOK_POLL_INTERVAL_MS: '25',
    WEBHOOK_RETRY_SCHEDULE_MS: '0,200,3000',
    ...extraEnv,
  });
  const logger = testLogger(name);
  const worker = await startService('links-worker', buildWorker, { settings: workerConfig.read(env), logger });
  const gatewaySettings = gatewayConfig.read(env);
  const gateway = await startService('links-gateway', buildGateway, { settings: gatewaySettings, logger });
  const dispatcher = options.dispatcher
    ? await startService('webhook-dispatcher', buildDispatcher, { settings: dispatcherConfig.read(env), logger })
    : null;
  const redirectors: Array<{
    settings: ReturnType<typeof redirectorConfig.read>;
    started: { stop(): Promise<void>; service: { ready?(): Promise<void> } };
  }> = [];
  for (const replica of ['a', 'b']) {
    const settings = redirectorConfig.read({
      ...env,
      PORT: String(await freePort()),
      REPLICA_ID: `${name}-r${replica}`,
      CLICK_SPOOL_DIR: mkdtempSync(path.join(tmpdir(), `${name}-spool-`)),
    });
    redirectors.push({ settings, started: await startService('redirector', buildRedirector, { settings, logger }) });
  }
  await Promise.all([
    worker.service.ready?.(),
    dispatcher?.service.ready?.(),
    ...redirectors.map((r) => r.started.service.ready?.()),
  ]);
  const mongo = await gateway.context.mongo();
  const accounts = createAccounts({
    connection: mongo,
    redis: gateway.context.redis(),
    pepper: TEST_SECRETS.API_KEY_PEPPER,
  });
  const members = createMembers(mongo);
  await Promise.all([accounts.ensureIndexes(), members.ensureIndexes()]);
  const commands: CommandBus = gateway.context.commands({ replicaId: gatewaySettings.replicaId, timeoutMs: 20_000 });
  const send = commands.send.bind(commands);

  async function userWithKey(organizationId: string, role: 'owner' | 'member') {
    const username = uniqueName('u')
      .toLowerCase()
      .replace(/[^a-z0-9]/g, '')
      .slice(0, 30);
    const user = await members.create(organizationId, { username, role, email: `${username}@example.com` });
    const { key } = await accounts.createKey(organizationId, { subject: user._id });
    return { user, token: key };
  }

  return {
    url: `http://127.0.0.1:${port}`,
    redirectors: redirectors.map((r) => `http://127.0.0.1:${r.settings.http.port}`) as [string, string],
    kafka: gateway.context.kafka(),
    accounts,
    members,
    store: createLinksStore(mongo),
    mongo,
    send,
    async newOrganization() {
      const org = await accounts.createEnvironment('links', name);
      const admin = await userWithKey(org._id, 'owner');
      const groupGuid = newGroupGuid();
      await send(MessageTypeNames.SetUpLinksOrganization, groupGuid, {
        organization_id: org._id,
        group_guid: groupGuid,
        group_name: 'Default group',
        admin_user_id: admin.user._id,
      });
      return { organizationId: org._id, groupGuid, admin };
    },
    async addUser(organizationId, groupGuid, role, newGroupName) {
      const member = await userWithKey(organizationId, 'member');
      await send(MessageTypeNames.AddLinksGroupMember, groupGuid, {
        organization_id: organizationId,
        group_guid: groupGuid,
        group_name: newGroupName ?? null,
        member_user_id: member.user._id,
        role,
      });
      return member;
    },
    async addDomain(organizationId, domain, groupGuids, redirectStatus = 301) {
      await send(MessageTypeNames.AddBrandedDomain, organizationId, {
        organization_id: organizationId,
        domain,
        group_guids: groupGuids,
        redirect_status: redirectStatus,
      });
    },
    async close() {
      for (const r of redirectors) await r.started.stop();
      await dispatcher?.stop();
      await worker.stop();
      await mongo.dropDatabase().catch(() => undefined);
      await gateway.stop();
    },
  };
}
