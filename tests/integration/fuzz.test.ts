import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { startImagesStack } from '../support/images-stack.js';
import { startLinksStack } from '../support/links-stack.js';
import { startNotificationsStack } from '../support/notifications-stack.js';
import { startOAuthStack } from '../support/oauth-stack.js';
import { startUsermgmtStack } from '../support/usermgmt-stack.js';

/**
 * Schemathesis (deploy/local/schemathesis.sh) against each gateway's /openapi.json, as a gate: with a fixed seed
 * and a bounded budget, its every check must pass: no server error, no status, header or body the document does
 * not name, no schema-violating request accepted, no schema-valid request rejected. What is left out is left out
 * by name, with the reason beside it.
 */

const ROOT = path.resolve(import.meta.dirname, '../..');
const SEED = '20261128';
const EXAMPLES = '20';

interface Running {
  base: string;
  /** Headers that authenticate as a caller allowed to use every operation. */
  headers: string[];
  close(): Promise<void>;
}

type Check = 'positive_data_acceptance' | 'ensure_resource_availability' | 'missing_required_header';

/** Checks switched off for some operations ("METHOD /path" as the document names them). */
interface Exclusion {
  operations: string[];
  checks: Check[];
  reason: string;
}

interface Target {
  name: string;
  start(): Promise<Running>;
  /** Checks switched off for every operation, each with the reason. */
  excludedChecks?: Partial<Record<Check, string>>;
  /** Hypothesis health checks not applied, each with the reason (a failed one stops an operation's fuzzing). */
  suppressedHealthChecks?: Record<string, string>;
  /** Checks switched off in the stateful phase (its links inferred from responses), each with the reason. */
  excludedStatefulChecks?: Partial<Record<Check, string>>;
  exclusions?: Exclusion[];
  /** Operations not run at all, each with the reason. */
  excludedOperations?: Record<string, string>;
}

const bearer = (token: string) => [`Authorization: Bearer ${token}`];

const targets: Target[] = [
  {
    name: 'usermgmt-gateway',
    async start() {
      const stack = await startUsermgmtStack();
      return { base: stack.url, headers: bearer((await stack.newKey()).key), close: stack.close };
    },
    exclusions: [
      {
        operations: ['GET /user_management/users', 'GET /webhook_endpoints', 'GET /webhook_endpoints/{id}/deliveries'],
        checks: ['positive_data_acceptance'],
        reason: 'before and after are each valid, but not together; OpenAPI query parameters cannot say "not both"',
      },
      {
        operations: ['GET /events'],
        checks: ['positive_data_acceptance'],
        reason:
          "before and after, or after and range_start, are each valid but not together; and `events` names known event types in a form the schema leaves open (WorkOS's Node SDK joins them with commas)",
      },
      {
        operations: [
          'POST /cors_origins',
          'POST /redirect_uris',
          'POST /webhook_endpoints',
          'PATCH /webhook_endpoints/{id}',
        ],
        checks: ['positive_data_acceptance'],
        reason:
          'a URL of the right form may still be refused for what it names: an origin with a path, a redirect URI over http to a non-local host, a webhook target on a private address',
      },
      {
        operations: ['PUT /user_management/jwt_template', 'POST /user_management/jwt_template/preview'],
        checks: ['positive_data_acceptance'],
        reason: 'the template must be JSON once its placeholders are filled in, which no schema can say',
      },
    ],
  },
  {
    name: 'scheduling-gateway',
    async start() {
      const stack = await startOAuthStack();
      const user = await stack.newUser();
      // A legacy grant: every scope, so that every operation is reachable.
      const { token } = stack.accessTokens.issue({
        sub: user._id,
        cid: 'cal_fuzz',
        gid: `grt_${user._id}`,
        scp: [],
        legacy: true,
      });
      return { base: stack.url, headers: bearer(token), close: stack.close };
    },
    excludedStatefulChecks: {
      positive_data_acceptance:
        "links the fuzzer infers from responses carry a null id (a top-level team's parentId) into numeric path parameters, as the string None",
    },
    exclusions: [
      {
        operations: ['POST /v2/auth/oauth2/token', 'POST /v2/auth/oauth2/revoke', 'POST /v2/auth/oauth2/introspect'],
        checks: ['positive_data_acceptance'],
        reason:
          'the client authenticates in the body or with HTTP Basic (RFC 6749 2.3.1): client_id is required in one of two places, which no schema of the body alone can say',
      },
      {
        operations: [
          'POST /v2/teams',
          'PATCH /v2/teams/{teamId}',
          'POST /v2/organizations/{orgId}/teams',
          'PATCH /v2/organizations/{orgId}/teams/{teamId}',
          'POST /v2/schedules',
          'PATCH /v2/schedules/{scheduleId}',
          'POST /v2/organizations/{orgId}/users/{userId}/schedules',
          'PATCH /v2/organizations/{orgId}/users/{userId}/schedules/{scheduleId}',
          'POST /v2/bookings',
          'POST /v2/bookings/{bookingUid}/reschedule',
        ],
        checks: ['positive_data_acceptance'],
        reason:
          'time zones must be ones the IANA database names, times real instants, availability ranges ordered, logo URLs http(s): the domain judges them and answers 400 naming the field',
      },
      {
        operations: [
          'POST /v2/teams/{teamId}/event-types',
          'PATCH /v2/teams/{teamId}/event-types/{eventTypeId}',
          'POST /v2/organizations/{orgId}/teams/{teamId}/event-types',
          'PATCH /v2/organizations/{orgId}/teams/{teamId}/event-types/{eventTypeId}',
        ],
        checks: ['positive_data_acceptance'],
        reason: "a team event type's hosts must be accepted members of the team: the data decides",
      },
      {
        operations: [
          'POST /v2/teams/{teamId}/memberships',
          'POST /v2/organizations/{orgId}/teams/{teamId}/memberships',
        ],
        checks: ['ensure_resource_availability'],
        reason:
          'the 404 after a team was created names the userId of the body, a user that does not exist, not the team',
      },
    ],
  },
  {
    name: 'images-gateway',
    async start() {
      const stack = await startImagesStack({ workers: 1, uploadLimitBytes: 1024 * 1024 });
      const { key } = await stack.newKey();
      return {
        base: stack.url,
        headers: [`Authorization: Basic ${Buffer.from(`api:${key}`).toString('base64')}`],
        close: stack.close,
      };
    },
    exclusions: [
      {
        operations: ['POST /shrink'],
        checks: ['positive_data_acceptance'],
        reason:
          'an upload is judged by its bytes (AVIF, WebP, JPEG or PNG), which a schema can only call binary; a source URL by the address it resolves to (no private ones)',
      },
    ],
  },
  {
    name: 'notifications-gateway',
    async start() {
      const stack = await startNotificationsStack();
      const { owner } = await stack.newDeployment();
      return { base: stack.urls[0], headers: [`Platform-Session-Token: ${owner.token}`], close: stack.close };
    },
    excludedOperations: {
      'GET /api/v2/notifications/inbox/watch':
        'a stream, opened as a WebSocket or as Server-Sent Events, that never ends: a plain GET asking for neither is 400 by design; frames, filters, resume and slow readers are tested in notifications-api',
    },
  },
  {
    name: 'links-gateway',
    async start() {
      const stack = await startLinksStack({}, { dispatcher: false });
      return { base: stack.url, headers: bearer((await stack.newOrganization()).admin.token), close: stack.close };
    },
    suppressedHealthChecks: {
      filter_too_much:
        '/v4/bitlinks/{id} takes any text (the whole id, URL-encoded); the fuzzer discards many candidates a URL path cannot carry, which is not a fault of the API',
    },
    excludedChecks: {
      missing_required_header:
        "Bitly answers a request without a token 403 FORBIDDEN (this check wants 401); clients written against Bitly's API expect it",
    },
    exclusions: [
      {
        operations: [
          'GET /v4/groups/{group_guid}/bitlinks',
          'GET /v4/groups/{group_guid}/shortlinks',
          'GET /v4/groups/{group_guid}/qr-codes',
        ],
        checks: ['positive_data_acceptance'],
        reason: 'search_after is a token taken from a previous answer; any other string is refused',
      },
      {
        operations: [
          'POST /v4/shorten',
          'POST /v4/bitlinks',
          'POST /v4/shortlinks',
          'PATCH /v4/bitlinks/{id}',
          'PATCH /v4/shortlinks/{id}',
          'PATCH /v4/bitlinks/{domain}/{hash}',
          'PATCH /v4/shortlinks/{domain}/{hash}',
          'POST /v4/qr-codes',
          'POST /v4/webhooks',
          'PATCH /v4/webhooks/{webhook_guid}',
        ],
        checks: ['positive_data_acceptance'],
        reason:
          'a long URL or webhook URL must parse as an http(s) URL with a real host, no credentials and not one of our short domains: rules of the URL parser and of the data',
      },
      {
        operations: [
          'POST /v4/campaigns',
          'PATCH /v4/campaigns/{campaign_guid}',
          'PATCH /v4/groups/{group_guid}/preferences',
        ],
        checks: ['positive_data_acceptance'],
        reason: "a campaign's channels and a group's preferred domain must be the group's own: the data decides",
      },
      {
        operations: [
          'POST /v4/channels',
          'PATCH /v4/channels/{channel_guid}',
          'PATCH /v4/user',
          'PATCH /v4/groups/{group_guid}',
        ],
        checks: ['positive_data_acceptance'],
        reason:
          "a channel's links, a user's default group and a group's branded domains must exist and be the caller's: the data decides",
      },
      {
        operations: ['PATCH /v4/qr-codes/{qrcode_id}'],
        checks: ['positive_data_acceptance'],
        reason: 'expiration_at must be 5 minutes to a year from now: the clock decides',
      },
      {
        operations: ['GET /v4/groups/{group_guid}/historical_usage'],
        checks: ['positive_data_acceptance'],
        reason: 'start_date may not be after end_date, which is now unless given: two parameters and the clock',
      },
      {
        operations: ['POST /v4/qr-codes/images'],
        checks: ['positive_data_acceptance'],
        reason: 'a logo is judged by its bytes, which must be the image type it is sent as',
      },
    ],
  },
];

const toml = (value: string | string[]) => JSON.stringify(value);

/** The Schemathesis configuration of one target: its exclusions, one `[[operations]]` table each. */
function configOf(target: Target): string {
  const suppressed = Object.entries(target.suppressedHealthChecks ?? {});
  const lines: string[] = [
    ...suppressed.map(([check, reason]) => `# ${check}: ${reason}`),
    ...(suppressed.length > 0 ? [`suppress-health-check = ${toml(suppressed.map(([check]) => check))}`, ''] : []),
    // No U+0000 in generated strings: the store (PostgreSQL under FerretDB) holds none, so every gateway refuses
    // one in a body, path or query with 400 in its own shape (usermgmt-api and libs/http test that).
    '[generation]',
    'allow-x00 = false',
    '',
    // A request is refused as well when it is too large for the gateway (413: a list at its schema's maxItems
    // may be more bytes than the body limit) or its URL too long for the router (414).
    '[checks.negative_data_rejection]',
    `expected-statuses = ${toml(['400', '401', '403', '404', '405', '406', '409', '413', '414', '415', '422', '428', '429', '5xx'])}`,
    '',
  ];
  for (const [check, reason] of Object.entries(target.excludedChecks ?? {}))
    lines.push(`# ${reason}`, `[checks.${check}]`, 'enabled = false', '');
  for (const [check, reason] of Object.entries(target.excludedStatefulChecks ?? {}))
    lines.push(`# ${reason}`, `[phases.stateful.checks.${check}]`, 'enabled = false', '');
  for (const exclusion of target.exclusions ?? []) {
    lines.push(`# ${exclusion.reason}`, '[[operations]]', `include-name = ${toml(exclusion.operations)}`);
    for (const check of exclusion.checks) lines.push(`checks.${check}.enabled = false`);
    lines.push('');
  }
  for (const [operation, reason] of Object.entries(target.excludedOperations ?? {}))
    lines.push(`# ${reason}`, '[[operations]]', `include-name = ${toml(operation)}`, 'enabled = false', '');
  return lines.join('\n');
}

let st: string;

function run(args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(st, args, { env: { ...process.env, NO_COLOR: '1', SCHEMATHESIS_TELEMETRY: 'false' } });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('close', (code) => resolve({ code, output }));
  });
}

describe('fuzzing every gateway from its OpenAPI document', () => {
  beforeAll(() => {
    st = execFileSync('bash', [path.join(ROOT, 'deploy/local/schemathesis.sh'), 'install'], {
      encoding: 'utf8',
    }).trim();
  }, 300_000);

  for (const target of targets) {
    it(`${target.name} passes every check`, async () => {
      const work = mkdtempSync(path.join(tmpdir(), `fuzz-${target.name}-`));
      writeFileSync(path.join(work, 'schemathesis.toml'), configOf(target));
      // The services' errors (a 500's stack) go beside the report, and into the message when the gate fails.
      const serverLog = path.join(work, 'server.log');
      process.env['TEST_LOG_FILE'] = serverLog;
      process.env['TEST_LOG_LEVEL'] ??= 'error';
      const running = await target.start();
      try {
        const { code, output } = await run([
          '--config-file',
          path.join(work, 'schemathesis.toml'),
          'run',
          `${running.base}/openapi.json`,
          // Every check runs unless the configuration switches it off for an operation (a `--checks` given
          // here would override the configuration's exclusions).
          '--seed',
          SEED,
          '--max-examples',
          EXAMPLES,
          '--workers',
          '1',
          '--request-timeout',
          '30',
          '--report',
          'junit',
          '--report-junit-path',
          path.join(work, 'junit.xml'),
          ...running.headers.flatMap((header) => ['-H', header]),
        ]);
        writeFileSync(path.join(work, 'output.txt'), output);
        const errors = existsSync(serverLog)
          ? readFileSync(serverLog, 'utf8')
              .split('\n')
              .filter((line) => line && !line.includes('"logger":"kafkajs"'))
              .join('\n')
              .slice(-8_000)
          : '';
        expect(
          code,
          `schemathesis found failures (all of them: ${work}/output.txt)\n${output.slice(-12_000)}\nserver errors:\n${errors}`,
        ).toBe(0);
        expect(readFileSync(path.join(work, 'junit.xml'), 'utf8')).toContain('<testsuite');
      } finally {
        await running.close();
      }
    }, 900_000);
  }
});
