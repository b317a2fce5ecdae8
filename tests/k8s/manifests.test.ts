/**
 * Validates the Kubernetes manifests under k8s/ without a cluster:
 *
 * 1. every YAML file parses (as YAML 1.1, the dialect kubectl reads; duplicate keys are errors), and every one is
 *    named by a kustomization;
 * 2. the base and the overlays are rendered by the real kustomize (deploy/local/kustomize.sh, found by
 *    tests/k8s/global-setup.ts);
 * 3. every rendered object is validated against the Kubernetes OpenAPI schemas shipped in the `kubernetes-models`
 *    package, plus a strict check for unknown fields that walks the package's TypeScript declarations; custom
 *    resources (KEDA, Strimzi) against their CRDs' schemas (./crd-schemas.ts, CRDs from deploy/local/crds.sh);
 * 4. the project's rules hold (probes, non-root, limits, graceful shutdown, PDB and one autoscaler per app, ...),
 *    and mutated copies show that each rule does fail when broken;
 * 5. each app's own config loader (apps/<app>/src/config.ts) accepts the environment its Deployment gives it, the
 *    autoscalers are sized by the topic catalogue, the KafkaTopics match it, the Ingresses carry what the apps need,
 *    the NetworkPolicies let each app reach only what it needs (./network-policy.ts), and what particular apps need
 *    holds (the redirector's click spool, the notifications gateway's watch streams, the notifier's SMTP drain).
 */
import { DEAD_LETTER, TOPIC_CATALOGUE, topicEntry } from '@platform/contracts';
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { IDeployment } from 'kubernetes-models/apps/v1/Deployment';
import type { IHorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import type { IPodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import type { IConfigMap } from 'kubernetes-models/v1/ConfigMap';
import type { IContainer } from 'kubernetes-models/v1/Container';
import type { INetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy';
import type { IService } from 'kubernetes-models/v1/Service';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { loadCrds, type CrdValidator } from './crd-schemas.js';
import { allowed, type Endpoint } from './network-policy.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const K8S = join(ROOT, 'k8s');
const rel = (file: string): string => relative(ROOT, file);

// ---------------------------------------------------------------------------------------------
// What is deployed, and how (the expectations that are specific to this project's apps)
// ---------------------------------------------------------------------------------------------

const SECRET_NAME = 'platform-secrets';
const CONFIG_NAME = 'platform-config';
const SHUTDOWN_MARGIN_MS = 2000;

interface AppSpec {
  port: number;
  service: boolean;
  /**
   * The autoscaler: an HPA on CPU (gateways, the redirector, and workers whose load is CPU), or a KEDA ScaledObject on
   * the consumer-group lag of PARTITION_BOUND[app] (workers that wait on I/O or must keep up with a topic).
   */
  scaling: { by: 'cpu' | 'lag'; min: number; max: number };
  secrets: string[];
  env: Record<string, string>;
  /** Variables that must be read from a key of the shared ConfigMap (valueFrom.configMapKeyRef): variable -> key. */
  configRefs?: Record<string, string>;
  /** Variables that must come from the pod's own fields (valueFrom.fieldRef): variable -> fieldPath. */
  fieldRefs?: Record<string, string>;
  /** Variables that must not be set at all (the app's default is the production behaviour). */
  unset?: string[];
  /** The app's own configuration loader (apps/<app>/src/config.ts): the rendered environment must satisfy it. */
  config: () => Promise<{ config: { read(env: Record<string, string | undefined>): unknown } }>;
}

/** Partitions of images.commands, as the image apps create the topic (apps/image-worker, apps/images-gateway). */
const IMAGE_COMMAND_PARTITIONS = 12;
/** Partitions of scheduling.commands, as the scheduling apps create the topic (apps/scheduling-worker, apps/scheduling-gateway). */
const SCHEDULING_COMMAND_PARTITIONS = 12;
/**
 * Consumer-group workers whose HPA maximum is the partition count of the topic that carries their work (the topic
 * catalogue, libs/contracts/src/topics.ts, from which the apps create their topics): one member per partition.
 */
const PARTITION_BOUND: Record<string, { topic: string; group: string }> = {
  'image-worker': { topic: 'images.commands', group: 'image-worker' },
  'scheduling-worker': { topic: 'scheduling.commands', group: 'scheduling-worker' },
  notifier: { topic: 'notifications.commands', group: 'notifier' },
  'links-worker': { topic: 'links.commands', group: 'links-worker' },
  'analytics-aggregator': { topic: 'links.clicks', group: 'analytics-aggregator' },
  'webhook-dispatcher': { topic: 'webhooks.deliveries', group: 'webhook-dispatcher' },
};

const APPS: Record<string, AppSpec> = {
  'usermgmt-gateway': {
    config: () => import('../../apps/usermgmt-gateway/src/config.js'),
    port: 3002,
    service: true,
    scaling: { by: 'cpu', min: 2, max: 10 },
    secrets: ['API_KEY_PEPPER', 'SECRETS_SEALING_KEY'],
    env: { HOST: '0.0.0.0', PORT: '3002' },
  },
  'usermgmt-worker': {
    config: () => import('../../apps/usermgmt-worker/src/config.js'),
    port: 9090,
    service: false,
    scaling: { by: 'cpu', min: 2, max: 8 },
    secrets: ['SECRETS_SEALING_KEY'],
    env: { HEALTH_HOST: '0.0.0.0', HEALTH_PORT: '9090' },
  },
  'webhook-dispatcher': {
    config: () => import('../../apps/webhook-dispatcher/src/config.js'),
    port: 9090,
    service: false,
    scaling: { by: 'lag', min: 2, max: 4 },
    secrets: ['SECRETS_SEALING_KEY'],
    env: { HEALTH_HOST: '0.0.0.0', HEALTH_PORT: '9090', EGRESS_ALLOW: '', WEBHOOK_TIMEOUT_MS: '15000' },
  },
  'scheduling-gateway': {
    config: () => import('../../apps/scheduling-gateway/src/config.js'),
    port: 3001,
    service: true,
    scaling: { by: 'cpu', min: 2, max: 10 },
    secrets: ['OAUTH_ACCESS_TOKEN_KEYS', 'OAUTH_SECRET_PEPPER'],
    env: {
      HOST: '0.0.0.0',
      PORT: '3001',
      TRUST_PROXY: '1',
      PUBLIC_BASE_URL: 'https://api.scheduling.example.com',
      WEB_PUBLIC_URL: 'https://app.scheduling.example.com',
    },
    configRefs: { PUBLIC_BASE_URL: 'SCHEDULING_API_URL', WEB_PUBLIC_URL: 'SCHEDULING_APP_URL' },
  },
  'scheduling-web': {
    config: () => import('../../apps/scheduling-web/src/config.js'),
    port: 3000,
    service: true,
    scaling: { by: 'cpu', min: 2, max: 6 },
    secrets: ['SESSION_SECRET', 'OAUTH_SECRET_PEPPER'],
    env: {
      HOST: '0.0.0.0',
      PORT: '3000',
      TRUST_PROXY: '1',
      PUBLIC_URL: 'https://app.scheduling.example.com',
      OAUTH_ISSUER: 'https://api.scheduling.example.com',
    },
    configRefs: { PUBLIC_URL: 'SCHEDULING_APP_URL', OAUTH_ISSUER: 'SCHEDULING_API_URL' },
  },
  'oauth-worker': {
    config: () => import('../../apps/oauth-worker/src/config.js'),
    port: 9090,
    service: false,
    scaling: { by: 'cpu', min: 2, max: 6 },
    secrets: ['SECRETS_SEALING_KEY'],
    env: {
      HEALTH_HOST: '0.0.0.0',
      HEALTH_PORT: '9090',
    },
    configRefs: {},
  },
  'scheduling-worker': {
    config: () => import('../../apps/scheduling-worker/src/config.js'),
    port: 9090,
    service: false,
    // one consumer per partition at most; min 2 so that one pod can die
    scaling: { by: 'cpu', min: 2, max: SCHEDULING_COMMAND_PARTITIONS },
    secrets: ['SECRETS_SEALING_KEY'],
    env: {
      HEALTH_HOST: '0.0.0.0',
      HEALTH_PORT: '9090',
      WEB_PUBLIC_URL: 'https://app.scheduling.example.com',
    },
    configRefs: { WEB_PUBLIC_URL: 'SCHEDULING_APP_URL' },
  },
  'images-gateway': {
    config: () => import('../../apps/images-gateway/src/config.js'),
    port: 3003,
    service: true,
    scaling: { by: 'cpu', min: 2, max: 10 },
    secrets: ['API_KEY_PEPPER', 'SECRETS_SEALING_KEY'],
    env: {
      HOST: '0.0.0.0',
      PORT: '3003',
      TRUST_PROXY: '1',
      PUBLIC_BASE_URL: 'https://api.images.example.com',
      UPLOAD_LIMIT_BYTES: '33554432',
      COMMAND_TIMEOUT_MS: '90000',
      IMAGE_MONTHLY_QUOTA: '0',
      IMAGE_RETENTION_SECONDS: '86400',
    },
    configRefs: {
      PUBLIC_BASE_URL: 'IMAGES_API_URL',
      IMAGE_MONTHLY_QUOTA: 'IMAGE_MONTHLY_QUOTA',
      IMAGE_RETENTION_SECONDS: 'IMAGE_RETENTION_SECONDS',
    },
  },
  'image-worker': {
    config: () => import('../../apps/image-worker/src/config.js'),
    port: 9090,
    service: false,
    // one consumer per partition at most; min 2 so that one pod can die
    scaling: { by: 'lag', min: 2, max: IMAGE_COMMAND_PARTITIONS },
    secrets: ['SECRETS_SEALING_KEY'],
    env: {
      HEALTH_HOST: '0.0.0.0',
      HEALTH_PORT: '9090',
      // image jobs can take tens of seconds: a longer drain than the other apps (grace period 65 s)
      SHUTDOWN_TIMEOUT_MS: '60000',
      PARTITIONS_CONCURRENCY: '2',
      EGRESS_ALLOW: '',
      IMAGE_MONTHLY_QUOTA: '0',
      IMAGE_RETENTION_SECONDS: '86400',
    },
    configRefs: { IMAGE_MONTHLY_QUOTA: 'IMAGE_MONTHLY_QUOTA', IMAGE_RETENTION_SECONDS: 'IMAGE_RETENTION_SECONDS' },
    // unset = the real AWS and GCS endpoints; the overrides are for local S3/GCS-compatible servers only
    unset: ['STORE_S3_ENDPOINT', 'STORE_GCS_ENDPOINT'],
  },
  'notifications-gateway': {
    config: () => import('../../apps/notifications-gateway/src/config.js'),
    port: 3004,
    service: true,
    scaling: { by: 'cpu', min: 2, max: 10 },
    secrets: ['API_KEY_PEPPER'],
    env: { HOST: '0.0.0.0', PORT: '3004', COMMAND_TIMEOUT_MS: '10000', NOTIFIER_METHODS: 'smtp' },
    configRefs: { NOTIFIER_METHODS: 'NOTIFIER_METHODS' },
    // the app names each process (pod, pid, random): a restarted container gets its own reply channel and watch group
    unset: ['REPLICA_ID'],
  },
  notifier: {
    config: () => import('../../apps/notifier/src/config.js'),
    port: 9090,
    service: false,
    // one consumer per partition of notifications.commands at most; min 2 so that one pod can die
    scaling: { by: 'lag', min: 2, max: 12 },
    secrets: ['API_KEY_PEPPER', 'SECRETS_SEALING_KEY'],
    env: {
      HEALTH_HOST: '0.0.0.0',
      HEALTH_PORT: '9090',
      // a send may take 3 x SMTP_TIMEOUT_MS: a longer drain than the other apps (grace period 45 s)
      SHUTDOWN_TIMEOUT_MS: '40000',
      SMTP_TIMEOUT_MS: '10000',
      NOTIFIER_METHODS: 'smtp',
      WEB_PUBLIC_URL: 'https://app.scheduling.example.com',
      SMTP_URL: 'smtp://smtp-relay.mail:587',
    },
    configRefs: { NOTIFIER_METHODS: 'NOTIFIER_METHODS', WEB_PUBLIC_URL: 'SCHEDULING_APP_URL' },
    fieldRefs: { REPLICA_ID: 'metadata.name' },
  },
  'links-gateway': {
    config: () => import('../../apps/links-gateway/src/config.js'),
    port: 3005,
    service: true,
    scaling: { by: 'cpu', min: 2, max: 10 },
    secrets: ['API_KEY_PEPPER', 'SECRETS_SEALING_KEY'],
    env: {
      HOST: '0.0.0.0',
      PORT: '3005',
      TRUST_PROXY: '1',
      COMMAND_TIMEOUT_MS: '10000',
      PUBLIC_BASE_URL: 'https://api.links.example.com',
      LINKS_DEFAULT_DOMAIN: 'lnk.example.com',
    },
    configRefs: { PUBLIC_BASE_URL: 'LINKS_API_URL', LINKS_DEFAULT_DOMAIN: 'LINKS_DEFAULT_DOMAIN' },
    // unset = https short links
    unset: ['LINKS_SHORT_URL_SCHEME'],
  },
  'links-worker': {
    config: () => import('../../apps/links-worker/src/config.js'),
    port: 9090,
    service: false,
    // one consumer per partition of links.commands at most; min 2 so that one pod can die
    scaling: { by: 'lag', min: 2, max: 12 },
    secrets: ['SECRETS_SEALING_KEY'],
    env: { HEALTH_HOST: '0.0.0.0', HEALTH_PORT: '9090', PUBLIC_BASE_URL: 'https://api.links.example.com' },
    configRefs: { PUBLIC_BASE_URL: 'LINKS_API_URL' },
  },
  redirector: {
    config: () => import('../../apps/redirector/src/config.js'),
    port: 3006,
    service: true,
    // no partition bound: every replica reads links.events in a group of its own
    scaling: { by: 'cpu', min: 2, max: 20 },
    secrets: [],
    env: {
      HOST: '0.0.0.0',
      PORT: '3006',
      TRUST_PROXY: '1',
      LINKS_DEFAULT_DOMAIN: 'lnk.example.com',
      CLICK_SPOOL_DIR: '/var/spool/clicks',
      CLICK_SPOOL_MAX_BYTES: '536870912',
    },
    configRefs: { LINKS_DEFAULT_DOMAIN: 'LINKS_DEFAULT_DOMAIN' },
    fieldRefs: { REPLICA_ID: 'metadata.name' },
  },
  'analytics-aggregator': {
    config: () => import('../../apps/analytics-aggregator/src/config.js'),
    port: 9090,
    service: false,
    // one consumer per partition of links.clicks at most; min 2 so that one pod can die
    scaling: { by: 'lag', min: 2, max: 12 },
    secrets: [],
    env: { HEALTH_HOST: '0.0.0.0', HEALTH_PORT: '9090', PARTITIONS_CONCURRENCY: '12' },
    // unset = the GeoLite2 databases of the npm package in the image
    unset: ['GEOIP_DIR'],
  },
};

/** Every app reads these (from the ConfigMap or its own env). */
const COMMON_ENV: Record<string, RegExp> = {
  NODE_ENV: /^production$/,
  LOG_LEVEL: /^(fatal|error|warn|info|debug|trace|silent)$/,
  KAFKA_BROKERS: /^[^,\s]+:\d+(,[^,\s]+:\d+)*$/,
  // a replica set (prod lists its three members, dev its one: 'the dependencies' below)
  MONGO_URL: /^mongodb:\/\/[^/]+\/.*[?&]replicaSet=[\w-]+/,
  MONGO_DB: /^platform$/,
  REDIS_URL: /^rediss?:\/\//,
  SHUTDOWN_TIMEOUT_MS: /^\d{4,6}$/,
};

interface Environment {
  dir: string;
  logLevel: string;
  hpaMin?: number;
  imageTag?: RegExp;
  /** The dependencies the overlay brings: Kafka through Strimzi or a StatefulSet, MongoDB's members, Redis. */
  dependencies?: { kafka: 'strimzi' | 'statefulset'; mongoMembers: number };
}

const ENVIRONMENTS: Environment[] = [
  { dir: 'k8s/base', logLevel: 'info' },
  {
    dir: 'k8s/overlays/dev',
    logLevel: 'debug',
    hpaMin: 1,
    imageTag: /^dev$/,
    dependencies: { kafka: 'statefulset', mongoMembers: 1 },
  },
  {
    dir: 'k8s/overlays/prod',
    logLevel: 'info',
    imageTag: /^\d+\.\d+\.\d+$/,
    dependencies: { kafka: 'strimzi', mongoMembers: 3 },
  },
];

/** The objects every environment has besides the apps' own: the public hosts and the network policies. */
const INGRESSES = ['images', 'links', 'notifications', 'scheduling', 'short-domains', 'usermgmt'];
const NETWORK_POLICIES = [
  'apps-to-kafka-and-mongo',
  'apps-to-otel-collector',
  'apps-to-redis',
  'default-deny',
  'dns',
  'ingress-controller-to-http-apps',
  'internet-egress',
  'notifier-to-smtp',
  'prometheus-to-apps',
];

/** What an overlay's dependencies render to (the topics: one KafkaTopic per catalogue topic and its dead letters). */
function dependencyObjects(dependencies: NonNullable<Environment['dependencies']>): string[] {
  const kafka =
    dependencies.kafka === 'strimzi'
      ? [
          'Kafka/kafka',
          'KafkaNodePool/dual-role',
          'NetworkPolicy/strimzi-egress',
          'NetworkPolicy/strimzi-entity-operator-to-api-server',
          ...TOPIC_CATALOGUE.flatMap((t) => [`KafkaTopic/${t.name}`, `KafkaTopic/${t.name}${DEAD_LETTER.suffix}`]),
        ]
      : ['StatefulSet/kafka', 'Service/kafka', 'NetworkPolicy/kafka'];
  return [
    ...kafka,
    'StatefulSet/mongo',
    'Service/mongo',
    'PodDisruptionBudget/mongo',
    'Job/mongo-init-replica-set',
    'NetworkPolicy/mongo',
    'StatefulSet/redis',
    'Service/redis',
    'NetworkPolicy/redis',
  ];
}

// ---------------------------------------------------------------------------------------------
// YAML
// ---------------------------------------------------------------------------------------------

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  [key: string]: unknown;
}

const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const clone = <T>(value: T): T => structuredClone(value);

/** YAML 1.1 as kubectl (sigs.k8s.io/yaml) reads it: `on`/`yes` are booleans, `0755` is octal. */
function parseYaml(text: string, source: string): Json[] {
  const values: Json[] = [];
  for (const doc of parseAllDocuments(text, { version: '1.1', uniqueKeys: true, prettyErrors: true })) {
    const problems = [...doc.errors, ...doc.warnings];
    if (problems.length > 0) throw new Error(`${source}: ${problems.map((p) => p.message).join('\n')}`);
    const value = doc.toJS({ maxAliasCount: 0 }) as Json;
    if (value !== null) values.push(value);
  }
  return values;
}

function readYaml(file: string): Json[] {
  return parseYaml(readFileSync(file, 'utf8'), rel(file));
}

function asManifest(value: Json, source: string): Manifest {
  if (!isObject(value)) throw new Error(`${source}: a document is not a mapping`);
  const { apiVersion, kind, metadata } = value;
  if (typeof apiVersion !== 'string' || typeof kind !== 'string')
    throw new Error(`${source}: a document has no apiVersion/kind`);
  if (!isObject(metadata) || typeof metadata['name'] !== 'string' || metadata['name'] === '')
    throw new Error(`${source}: ${kind} has no metadata.name`);
  return value as unknown as Manifest;
}

function yamlFilesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.ya?ml$/.test(f))
    .map((f) => join(dir, f))
    .sort();
}

// ---------------------------------------------------------------------------------------------
// kustomize: the real one (deploy/local/kustomize.sh builds it; tests/k8s/global-setup.ts finds it)
// ---------------------------------------------------------------------------------------------

function kustomizeBin(): string {
  const bin = process.env['KUSTOMIZE_BIN'];
  if (!bin)
    throw new Error(
      'KUSTOMIZE_BIN is not set: run through vitest (tests/k8s/global-setup.ts runs deploy/local/kustomize.sh)',
    );
  return bin;
}

interface RenderResult {
  objects: Manifest[];
  /** Every file the kustomizations name: kustomizations, resources and patches. */
  files: Set<string>;
}

/** `kustomize build <dir>`, parsed as kubectl would read it. */
function render(dir: string): RenderResult {
  const text = execFileSync(kustomizeBin(), ['build', resolve(ROOT, dir)], {
    encoding: 'utf8',
    maxBuffer: 64 * 2 ** 20,
  });
  return {
    objects: parseYaml(text, `kustomize build ${dir}`).map((doc) => asManifest(doc, dir)),
    files: kustomizationFiles(resolve(ROOT, dir)),
  };
}

/** The files a kustomization and the ones it includes name (kustomize itself fails on a missing one). */
function kustomizationFiles(dir: string, files = new Set<string>()): Set<string> {
  const file = join(dir, 'kustomization.yaml');
  files.add(file);
  const [k] = readYaml(file);
  if (!isObject(k)) throw new Error(`${rel(file)}: not a mapping`);
  for (const entry of [...asList(k['resources']), ...asList(k['components'])]) {
    if (typeof entry !== 'string') continue;
    const path = resolve(dir, entry);
    if (statSync(path).isDirectory()) kustomizationFiles(path, files);
    else files.add(path);
  }
  for (const patch of asList(k['patches']))
    if (isObject(patch) && typeof patch['path'] === 'string') files.add(resolve(dir, patch['path']));
  return files;
}

function asList(value: Json | undefined): Json[] {
  return Array.isArray(value) ? value : [];
}

function groupVersion(apiVersion: string): { group: string; version: string } {
  const slash = apiVersion.indexOf('/');
  return slash < 0
    ? { group: '', version: apiVersion }
    : { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1) };
}

function splitImage(image: string): { name: string; tag?: string; digest?: string } {
  const [withTag = '', digest] = image.split('@');
  const colon = withTag.lastIndexOf(':');
  const hasTag = colon > withTag.lastIndexOf('/');
  return {
    name: hasTag ? withTag.slice(0, colon) : withTag,
    ...(hasTag ? { tag: withTag.slice(colon + 1) } : {}),
    ...(digest ? { digest } : {}),
  };
}

// ---------------------------------------------------------------------------------------------
// Schema validation: kubernetes-models (JSON schema) + unknown-field check (TypeScript declarations) for the
// Kubernetes API; the CRDs' own schemas (./crd-schemas.ts) for custom resources
// ---------------------------------------------------------------------------------------------

interface ModelClass {
  new (data: unknown): { validate(): void };
}

function modelPath(apiVersion: string, kind: string): string {
  const { group, version } = groupVersion(apiVersion);
  if (!/^[A-Za-z0-9.-]*$/.test(group) || !/^v\d+\w*$/.test(version) || !/^[A-Z]\w*$/.test(kind))
    throw new Error(`not a Kubernetes apiVersion/kind: ${apiVersion} ${kind}`);
  return group === '' ? `kubernetes-models/${version}/${kind}` : `kubernetes-models/${group}/${version}/${kind}`;
}

async function loadModel(apiVersion: string, kind: string): Promise<ModelClass> {
  let mod: Record<string, unknown>;
  try {
    mod = (await import(modelPath(apiVersion, kind))) as Record<string, unknown>;
  } catch {
    throw new Error(`no Kubernetes schema for ${apiVersion} ${kind}`);
  }
  const model = mod[kind];
  if (typeof model !== 'function') throw new Error(`no Kubernetes schema for ${apiVersion} ${kind}`);
  return model as ModelClass;
}

/** The API groups of custom resources: validated against their CRDs, which alone decide their versions. */
const CUSTOM_GROUPS = new Set(['keda.sh', 'kafka.strimzi.io']);
const isCustom = (o: { apiVersion: string }): boolean => CUSTOM_GROUPS.has(groupVersion(o.apiVersion).group);

let crdValidator: CrdValidator | undefined;
function crds(): CrdValidator {
  const dir = process.env['PLATFORM_CRDS_DIR'];
  if (!dir)
    throw new Error(
      'PLATFORM_CRDS_DIR is not set: run through vitest (tests/k8s/global-setup.ts runs deploy/local/crds.sh)',
    );
  crdValidator ??= loadCrds(dir);
  return crdValidator;
}

/** Returns the schema errors of an object ([] when valid). */
async function schemaErrors(o: Manifest): Promise<string[]> {
  if (isCustom(o)) {
    const errors = crds().errors(o);
    if (!errors) return [`${o.kind}/${o.metadata.name}: no CustomResourceDefinition for ${o.apiVersion} ${o.kind}`];
    return errors.map((e) => `${o.kind}/${o.metadata.name}: ${e}`);
  }
  const errors: string[] = [];
  if (/(alpha|beta)/.test(groupVersion(o.apiVersion).version))
    errors.push(`${o.kind}/${o.metadata.name}: ${o.apiVersion} is not a GA API version`);
  try {
    const Model = await loadModel(o.apiVersion, o.kind);
    new Model(o).validate();
  } catch (error) {
    errors.push(`${o.kind}/${o.metadata.name}: ${(error as Error).message}`);
  }
  return errors;
}

/**
 * Rejects fields that the Kubernetes API does not know, like `kubectl apply` with the default
 * strict server-side field validation does. The field names come from the kubernetes-models
 * declarations (interfaces I<Kind> generated from the same OpenAPI spec as the schemas).
 */
class UnknownFieldChecker {
  private readonly checker: ts.TypeChecker;
  private readonly types = new Map<string, ts.Type>();

  constructor(kinds: Array<{ apiVersion: string; kind: string }>) {
    const unique = [
      ...new Map(kinds.filter((k) => !isCustom(k)).map((k) => [`${k.apiVersion} ${k.kind}`, k])).values(),
    ];
    const entry = join(ROOT, 'tests/k8s/__k8s_kinds__.ts');
    const source = unique
      .map((k, i) => `export type T${i} = import('${modelPath(k.apiVersion, k.kind)}').I${k.kind};`)
      .join('\n');
    const options: ts.CompilerOptions = {
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2022,
      lib: ['lib.es5.d.ts'],
      types: [],
      strict: true,
      noEmit: true,
      skipLibCheck: true,
    };
    const host = ts.createCompilerHost(options, true);
    const { getSourceFile, fileExists, readFile } = host;
    host.fileExists = (f) => f === entry || fileExists.call(host, f);
    host.readFile = (f) => (f === entry ? source : readFile.call(host, f));
    host.getSourceFile = (f, language, ...rest) =>
      f === entry ? ts.createSourceFile(f, source, language, true) : getSourceFile.call(host, f, language, ...rest);
    const program = ts.createProgram([entry], options, host);
    const problems = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    if (problems.length > 0) throw new Error(`cannot load the Kubernetes declarations:\n${problems.join('\n')}`);
    this.checker = program.getTypeChecker();
    const file = program.getSourceFile(entry);
    const moduleSymbol = file && this.checker.getSymbolAtLocation(file);
    if (!moduleSymbol) throw new Error('cannot load the Kubernetes declarations');
    const exports = new Map(this.checker.getExportsOfModule(moduleSymbol).map((s) => [s.name, s]));
    unique.forEach((k, i) => {
      const symbol = exports.get(`T${i}`);
      if (symbol) this.types.set(`${k.apiVersion} ${k.kind}`, this.checker.getDeclaredTypeOfSymbol(symbol));
    });
  }

  unknownFields(o: Manifest): string[] {
    if (isCustom(o)) return []; // the CRD schemas reject unknown fields themselves (schemaErrors)
    const type = this.types.get(`${o.apiVersion} ${o.kind}`);
    if (!type) return [`${o.kind}/${o.metadata.name}: no declarations for ${o.apiVersion} ${o.kind}`];
    const out: string[] = [];
    this.walk(o as unknown as Json, type, `${o.kind}/${o.metadata.name}:`, out);
    return out;
  }

  private walk(value: Json, declared: ts.Type, path: string, out: string[]): void {
    if (value === null || typeof value !== 'object') return;
    let type = this.checker.getNonNullableType(declared);
    if (type.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) return;
    if (type.isUnion()) {
      const objectLike = type.types.find((t) => t.getProperties().length > 0 || this.checker.isArrayType(t));
      if (!objectLike) return;
      type = objectLike;
    }
    if (Array.isArray(value)) {
      if (!this.checker.isArrayType(type)) {
        out.push(`${path} is a list where the API expects ${this.checker.typeToString(type)}`);
        return;
      }
      const [element] = this.checker.getTypeArguments(type as ts.TypeReference);
      if (element) value.forEach((item, i) => this.walk(item, element, `${path}[${i}]`, out));
      return;
    }
    const properties = type.getProperties();
    if (properties.length === 0) {
      const [index] = this.checker.getIndexInfosOfType(type);
      if (index) for (const [key, item] of Object.entries(value)) this.walk(item, index.type, `${path}.${key}`, out);
      return;
    }
    for (const [key, item] of Object.entries(value)) {
      const property = type.getProperty(key);
      if (!property) out.push(`${path} unknown field '${key}'`);
      else this.walk(item, this.checker.getTypeOfSymbol(property), `${path}.${key}`, out);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Project rules
// ---------------------------------------------------------------------------------------------

const QUANTITY_UNITS: Record<string, number> = {
  '': 1,
  m: 1e-3,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
};

function quantity(q: string | number | undefined): number | undefined {
  if (q === undefined) return undefined;
  if (typeof q === 'number') return q;
  const m = /^(\d+(?:\.\d+)?)(m|k|M|G|T|Ki|Mi|Gi|Ti)?$/.exec(q);
  if (!m) return undefined;
  return Number(m[1]) * (QUANTITY_UNITS[m[2] ?? ''] ?? NaN);
}

const matches = (selector: Record<string, string> | undefined, labels: Record<string, string> | undefined): boolean =>
  !!selector && Object.keys(selector).length > 0 && Object.entries(selector).every(([k, v]) => labels?.[k] === v);

const of = <T>(objects: Manifest[], kind: string): T[] => objects.filter((o) => o.kind === kind) as unknown as T[];

/** The fields of a KEDA ScaledObject (keda.sh/v1alpha1) that the checks read; the CRD schema validates the rest. */
interface ScaledObject {
  metadata: { name: string };
  spec: {
    scaleTargetRef: { apiVersion?: string; kind?: string; name: string };
    minReplicaCount?: number;
    maxReplicaCount?: number;
    triggers: Array<{ type: string; metadata?: Record<string, string> }>;
  };
}

/** The autoscaler of a Deployment: its HPA, or the ScaledObject (KEDA makes the HPA from it at run time). */
function autoscalerOf(
  objects: Manifest[],
  name: string,
): { kind: 'hpa' | 'keda'; min: number | undefined; max: number | undefined } | undefined {
  const hpa = of<IHorizontalPodAutoscaler>(objects, 'HorizontalPodAutoscaler').find(
    (h) => h.spec?.scaleTargetRef.name === name,
  );
  if (hpa) return { kind: 'hpa', min: hpa.spec?.minReplicas, max: hpa.spec?.maxReplicas };
  const so = of<ScaledObject>(objects, 'ScaledObject').find((x) => x.spec.scaleTargetRef.name === name);
  return so && { kind: 'keda', min: so.spec.minReplicaCount, max: so.spec.maxReplicaCount };
}

/** Pod templates of the workloads: Deployments (the apps) and StatefulSets (the dependencies). */
const workloadPodLabels = (objects: Manifest[]): Array<Record<string, string> | undefined> =>
  objects
    .filter((o) => o.kind === 'Deployment' || o.kind === 'StatefulSet')
    .map((o) => (o as unknown as IDeployment).spec?.template.metadata?.labels);

function secretKeysFromExample(): Set<string> {
  const text = readFileSync(join(K8S, 'base/secrets.example.env'), 'utf8');
  return new Set(
    text
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l !== '' && !l.startsWith('#'))
      .map((l) => l.slice(0, l.indexOf('='))),
  );
}

type EnvValue = { value: string } | { secret: string; key: string } | { field: string };

/** Pod fields an app may read (downward API): its own identity, nothing that changes while it runs. */
const POD_FIELDS = new Set(['metadata.name', 'metadata.namespace']);

/** The container's environment as the kubelet builds it: envFrom first, env entries override. */
function resolveEnv(c: IContainer, configMaps: IConfigMap[], problems: string[], where: string): Map<string, EnvValue> {
  const env = new Map<string, EnvValue>();
  const configMap = (name: string): IConfigMap | undefined => {
    const found = configMaps.find((cm) => cm.metadata?.name === name);
    if (!found) problems.push(`${where}: ConfigMap ${name} is referenced but not defined`);
    return found;
  };
  for (const from of c.envFrom ?? []) {
    if (from.configMapRef) {
      const cm = configMap(from.configMapRef.name ?? '');
      for (const [k, v] of Object.entries(cm?.data ?? {})) env.set(`${from.prefix ?? ''}${k}`, { value: v });
    }
    if (from.secretRef)
      problems.push(
        `${where}: envFrom secretRef exposes every key of ${from.secretRef.name}; use secretKeyRef per key`,
      );
  }
  for (const e of c.env ?? []) {
    if (e.valueFrom?.secretKeyRef)
      env.set(e.name, { secret: e.valueFrom.secretKeyRef.name ?? '', key: e.valueFrom.secretKeyRef.key });
    else if (e.valueFrom?.fieldRef) {
      const path = e.valueFrom.fieldRef.fieldPath;
      if (!POD_FIELDS.has(path))
        problems.push(`${where}: ${e.name} reads pod field ${path}; only ${[...POD_FIELDS].join(', ')}`);
      env.set(e.name, { field: path });
    } else if (e.valueFrom?.configMapKeyRef) {
      const ref = e.valueFrom.configMapKeyRef;
      const value = configMap(ref.name ?? '')?.data?.[ref.key];
      if (value === undefined)
        problems.push(`${where}: ${e.name} refers to missing ConfigMap key ${ref.name}/${ref.key}`);
      else env.set(e.name, { value });
    } else if (e.valueFrom) problems.push(`${where}: ${e.name} uses an unexpected valueFrom`);
    else env.set(e.name, { value: e.value ?? '' });
  }
  return env;
}

/** The volume mount that holds a path of the container's filesystem (the deepest one), if any. */
function mountOf(c: IContainer, path: string): NonNullable<IContainer['volumeMounts']>[number] | undefined {
  const inside = (c.volumeMounts ?? []).filter((m) => {
    const root = m.mountPath.replace(/\/+$/, '');
    return path === root || path.startsWith(`${root}/`);
  });
  return inside.sort((a, b) => b.mountPath.length - a.mountPath.length)[0];
}

/** Rules every Deployment (present or future) and its companions must satisfy. */
function ruleViolations(objects: Manifest[], options: { imageTag?: RegExp } = {}): string[] {
  const problems: string[] = [];
  const deployments = of<IDeployment>(objects, 'Deployment');
  const hpas = of<IHorizontalPodAutoscaler>(objects, 'HorizontalPodAutoscaler');
  const scaledObjects = of<ScaledObject>(objects, 'ScaledObject');
  const pdbs = of<IPodDisruptionBudget>(objects, 'PodDisruptionBudget');
  const services = of<IService>(objects, 'Service');
  const configMaps = of<IConfigMap>(objects, 'ConfigMap');
  const secretKeys = secretKeysFromExample();

  for (const o of objects.filter((o) => o.kind === 'Secret'))
    problems.push(`Secret/${o.metadata.name} is committed: secret values are created out of band (${SECRET_NAME})`);

  for (const d of deployments) {
    const name = d.metadata?.name ?? '?';
    const at = `Deployment/${name}`;
    const pod = d.spec?.template;
    const podLabels = pod?.metadata?.labels ?? {};
    const spec = pod?.spec;
    if (!spec) {
      problems.push(`${at}: no pod template`);
      continue;
    }

    // labels and selector
    for (const [where, labels] of [
      ['metadata', d.metadata?.labels],
      ['pod template', podLabels],
    ] as const) {
      if (labels?.['app.kubernetes.io/name'] !== name)
        problems.push(`${at}: ${where} label app.kubernetes.io/name must be ${name}`);
      if (labels?.['app.kubernetes.io/part-of'] !== 'platform')
        problems.push(`${at}: ${where} label app.kubernetes.io/part-of must be platform`);
    }
    if (d.spec?.selector.matchExpressions?.length)
      problems.push(`${at}: selector uses matchExpressions; use matchLabels`);
    if (!matches(d.spec?.selector.matchLabels, podLabels))
      problems.push(`${at}: selector does not match the pod template labels`);

    // autoscaling and disruption budget
    const myHpas = hpas.filter(
      (h) => h.spec?.scaleTargetRef.kind === 'Deployment' && h.spec.scaleTargetRef.name === name,
    );
    const myScaled = scaledObjects.filter(
      (x) => (x.spec.scaleTargetRef.kind ?? 'Deployment') === 'Deployment' && x.spec.scaleTargetRef.name === name,
    );
    // two autoscalers (an HPA beside KEDA's own) would fight over the replica count
    if (myHpas.length + myScaled.length !== 1)
      problems.push(
        `${at}: needs exactly one autoscaler, an HPA or a KEDA ScaledObject, targeting it (found ${myHpas.length} HPA, ${myScaled.length} ScaledObject)`,
      );
    for (const x of myScaled) {
      if ((x.spec.scaleTargetRef.apiVersion ?? 'apps/v1') !== 'apps/v1')
        problems.push(`ScaledObject/${x.metadata.name}: scaleTargetRef.apiVersion must be apps/v1`);
      const min = x.spec.minReplicaCount ?? 0;
      if (x.spec.maxReplicaCount === undefined)
        problems.push(`ScaledObject/${x.metadata.name}: maxReplicaCount must be set (KEDA's default is 100)`);
      else if (min < 1 || x.spec.maxReplicaCount < min)
        problems.push(`ScaledObject/${x.metadata.name}: needs 1 <= minReplicaCount <= maxReplicaCount`);
      if (x.spec.triggers.length === 0) problems.push(`ScaledObject/${x.metadata.name}: has no trigger`);
    }
    for (const h of myHpas) {
      if (h.spec?.scaleTargetRef.apiVersion !== 'apps/v1')
        problems.push(`HPA/${h.metadata?.name}: scaleTargetRef.apiVersion must be apps/v1`);
      const min = h.spec?.minReplicas ?? 1;
      if (min < 1 || (h.spec?.maxReplicas ?? 0) < min)
        problems.push(`HPA/${h.metadata?.name}: needs 1 <= minReplicas <= maxReplicas`);
      if (!h.spec?.metrics?.some((m) => m.type === 'Resource' && m.resource?.name === 'cpu'))
        problems.push(`HPA/${h.metadata?.name}: scales on CPU`);
    }
    if (myHpas.length + myScaled.length > 0 && d.spec?.replicas !== undefined)
      problems.push(
        `${at}: spec.replicas is set although an autoscaler manages it (every apply would reset the replica count)`,
      );
    const myPdbs = pdbs.filter((p) => matches(p.spec?.selector?.matchLabels, podLabels));
    if (myPdbs.length !== 1) problems.push(`${at}: needs exactly one PDB selecting its pods (found ${myPdbs.length})`);
    for (const p of myPdbs) {
      if (p.spec?.minAvailable === undefined && p.spec?.maxUnavailable === undefined)
        problems.push(`PDB/${p.metadata?.name}: needs minAvailable or maxUnavailable`);
    }

    // pod security
    const psc = spec.securityContext;
    if (psc?.runAsNonRoot !== true) problems.push(`${at}: pod securityContext.runAsNonRoot must be true`);
    if (!psc?.runAsUser || psc.runAsUser === 0)
      problems.push(`${at}: pod securityContext.runAsUser must be a non-root uid`);
    if (spec.automountServiceAccountToken !== false)
      problems.push(`${at}: automountServiceAccountToken must be false (the apps never call the API server)`);

    // spreading
    const spread =
      spec.topologySpreadConstraints?.some(
        (t) => t.topologyKey === 'kubernetes.io/hostname' && matches(t.labelSelector?.matchLabels, podLabels),
      ) ||
      spec.affinity?.podAntiAffinity?.preferredDuringSchedulingIgnoredDuringExecution?.some(
        (t) =>
          t.podAffinityTerm.topologyKey === 'kubernetes.io/hostname' &&
          matches(t.podAffinityTerm.labelSelector?.matchLabels, podLabels),
      );
    if (!spread)
      problems.push(`${at}: needs a topologySpreadConstraint or preferred podAntiAffinity by kubernetes.io/hostname`);

    // scratch space: an emptyDir without a bound can fill the node's disk (or its memory) for every pod there
    for (const v of spec.volumes ?? [])
      if (v.emptyDir && quantity(v.emptyDir.sizeLimit) === undefined)
        problems.push(`${at}: emptyDir ${v.name} needs a sizeLimit`);

    // services
    const myServices = services.filter((s) => matches(s.spec?.selector, podLabels));
    if (spec.containers.length !== 1) problems.push(`${at}: expected one container`);
    const grace = spec.terminationGracePeriodSeconds;
    if (grace === undefined) problems.push(`${at}: terminationGracePeriodSeconds must be set`);

    for (const c of spec.containers) {
      const cat = `${at} container ${c.name}`;
      const ports = c.ports ?? [];
      const portOf = (p: number | string | undefined): number | undefined =>
        typeof p === 'number'
          ? ports.find((x) => x.containerPort === p)?.containerPort
          : ports.find((x) => x.name === p)?.containerPort;

      // image
      const image = splitImage(c.image ?? '');
      if (!image.name) problems.push(`${cat}: no image`);
      if (image.tag === 'latest') problems.push(`${cat}: image tag latest`);
      if (options.imageTag && !(image.digest || (image.tag && options.imageTag.test(image.tag))))
        problems.push(`${cat}: image ${c.image} must be tagged ${options.imageTag}`);

      // probes
      const probe = (kind: 'livenessProbe' | 'readinessProbe' | 'startupProbe', path: string): void => {
        const get = c[kind]?.httpGet;
        if (!get) problems.push(`${cat}: needs an HTTP ${kind} on ${path}`);
        else {
          if (get.path !== path) problems.push(`${cat}: ${kind} must GET ${path} (has ${get.path})`);
          if (portOf(get.port) === undefined)
            problems.push(`${cat}: ${kind} port ${get.port} is not a declared container port`);
        }
      };
      probe('livenessProbe', '/healthz');
      probe('readinessProbe', '/readyz');
      probe('startupProbe', '/healthz');
      if ((c.readinessProbe?.timeoutSeconds ?? 1) < 3)
        problems.push(`${cat}: readinessProbe.timeoutSeconds must be >= 3 (/readyz waits up to 2 s per dependency)`);

      // resources
      for (const kind of ['requests', 'limits'] as const)
        for (const resource of ['cpu', 'memory'])
          if (quantity(c.resources?.[kind]?.[resource]) === undefined)
            problems.push(`${cat}: resources.${kind}.${resource} must be set`);
      for (const resource of ['cpu', 'memory']) {
        const request = quantity(c.resources?.requests?.[resource]);
        const limit = quantity(c.resources?.limits?.[resource]);
        if (request !== undefined && limit !== undefined && request > limit)
          problems.push(`${cat}: ${resource} request exceeds its limit`);
      }

      // container security
      const sc = c.securityContext;
      if (sc?.allowPrivilegeEscalation !== false) problems.push(`${cat}: allowPrivilegeEscalation must be false`);
      if (sc?.readOnlyRootFilesystem !== true) problems.push(`${cat}: readOnlyRootFilesystem must be true`);
      if (!sc?.capabilities?.drop?.includes('ALL')) problems.push(`${cat}: capabilities must drop ALL`);
      if (sc?.runAsNonRoot === false) problems.push(`${cat}: runAsNonRoot must not be overridden to false`);
      if (sc?.runAsUser === 0) problems.push(`${cat}: runAsUser must not be 0`);
      if (sc?.privileged) problems.push(`${cat}: privileged`);
      if ((sc?.seccompProfile ?? psc?.seccompProfile)?.type !== 'RuntimeDefault')
        problems.push(`${cat}: seccompProfile must be RuntimeDefault`);
      const tmp = c.volumeMounts?.find((m) => m.mountPath === '/tmp');
      if (!tmp || !spec.volumes?.some((v) => v.name === tmp.name && v.emptyDir))
        problems.push(`${cat}: /tmp must be an emptyDir mount (read-only root filesystem)`);

      // environment
      const env = resolveEnv(c, configMaps, problems, cat);
      for (const [k, v] of env)
        if ('secret' in v) {
          if (v.secret !== SECRET_NAME)
            problems.push(`${cat}: ${k} must come from Secret ${SECRET_NAME}, not ${v.secret}`);
          if (!secretKeys.has(v.key))
            problems.push(`${cat}: ${k} uses key ${v.key}, missing from k8s/base/secrets.example.env`);
        }

      // directories the app is pointed at (a spool, a data folder): the root filesystem is read-only and the image's
      // own files are found by default, so a *_DIR must be on a volume mounted into the container
      for (const [k, v] of env)
        if (k.endsWith('_DIR') && 'value' in v && v.value !== '' && !mountOf(c, v.value))
          problems.push(`${cat}: ${k}=${v.value} is not on a mounted volume (the root filesystem is read-only)`);

      // graceful shutdown
      const shutdown = env.get('SHUTDOWN_TIMEOUT_MS');
      const shutdownMs = shutdown && 'value' in shutdown ? Number(shutdown.value) : NaN;
      const preStopMs = (c.lifecycle?.preStop?.sleep?.seconds ?? 0) * 1000;
      if (!Number.isInteger(shutdownMs)) problems.push(`${cat}: SHUTDOWN_TIMEOUT_MS must be set`);
      else if (grace !== undefined && preStopMs + shutdownMs > grace * 1000 - SHUTDOWN_MARGIN_MS)
        problems.push(
          `${cat}: preStop sleep + SHUTDOWN_TIMEOUT_MS must end ${SHUTDOWN_MARGIN_MS} ms before terminationGracePeriodSeconds (${grace} s)`,
        );
      // A request waiting for its command's reply is in flight: shutdown must outlast the longest wait.
      const commandTimeout = env.get('COMMAND_TIMEOUT_MS');
      const commandTimeoutMs = commandTimeout && 'value' in commandTimeout ? Number(commandTimeout.value) : NaN;
      if (Number.isInteger(shutdownMs) && Number.isInteger(commandTimeoutMs) && shutdownMs < commandTimeoutMs)
        problems.push(
          `${cat}: SHUTDOWN_TIMEOUT_MS (${shutdownMs}) is shorter than COMMAND_TIMEOUT_MS (${commandTimeoutMs}): requests waiting for a reply would be cut off`,
        );
      if (c.lifecycle?.preStop?.exec) problems.push(`${cat}: use the preStop sleep action, not exec`);
      if (myServices.length > 0 && preStopMs < 2000)
        problems.push(
          `${cat}: behind a Service, needs a preStop sleep of >= 2 s so endpoints deregister before SIGTERM`,
        );

      for (const s of myServices)
        for (const p of s.spec?.ports ?? [])
          if (portOf(p.targetPort ?? p.port) === undefined)
            problems.push(`Service/${s.metadata?.name}: targetPort ${p.targetPort} is not a port of ${name}`);
    }
  }

  // companions that point at nothing
  const deploymentNames = new Set(deployments.map((d) => d.metadata?.name));
  for (const h of hpas)
    if (h.spec?.scaleTargetRef.kind !== 'Deployment' || !deploymentNames.has(h.spec.scaleTargetRef.name))
      problems.push(
        `HPA/${h.metadata?.name}: scaleTargetRef ${h.spec?.scaleTargetRef.kind}/${h.spec?.scaleTargetRef.name} is not a Deployment here`,
      );
  for (const x of scaledObjects)
    if (
      (x.spec.scaleTargetRef.kind ?? 'Deployment') !== 'Deployment' ||
      !deploymentNames.has(x.spec.scaleTargetRef.name)
    )
      problems.push(
        `ScaledObject/${x.metadata.name}: scaleTargetRef ${x.spec.scaleTargetRef.kind ?? 'Deployment'}/${x.spec.scaleTargetRef.name} is not a Deployment here`,
      );
  const workloads = workloadPodLabels(objects);
  for (const p of pdbs)
    if (!workloads.some((labels) => matches(p.spec?.selector?.matchLabels, labels)))
      problems.push(`PDB/${p.metadata?.name}: selects no workload's pods`);
  for (const s of services)
    if (!workloads.some((labels) => matches(s.spec?.selector, labels)))
      problems.push(`Service/${s.metadata?.name}: selects no workload's pods`);
  return problems;
}

/** What this project deploys: the apps of APPS with their settings (and not the CLI). */
function appExpectationViolations(objects: Manifest[], environment: Environment): string[] {
  const problems: string[] = [];
  const deployments = of<IDeployment>(objects, 'Deployment');
  const configMaps = of<IConfigMap>(objects, 'ConfigMap');
  const names = deployments.map((d) => d.metadata?.name ?? '?').sort();
  if (JSON.stringify(names) !== JSON.stringify(Object.keys(APPS).sort()))
    problems.push(`Deployments are ${names.join(', ')}; expected ${Object.keys(APPS).sort().join(', ')}`);
  if (!configMaps.some((cm) => cm.metadata?.name === CONFIG_NAME)) problems.push(`ConfigMap ${CONFIG_NAME} is missing`);

  for (const [name, app] of Object.entries(APPS)) {
    const d = deployments.find((x) => x.metadata?.name === name);
    const c = d?.spec?.template.spec?.containers[0];
    if (!d || !c) continue;
    const at = `Deployment/${name}`;
    if (splitImage(c.image ?? '').name !== `platform/${name}`) problems.push(`${at}: image must be platform/${name}`);
    for (const probe of [c.livenessProbe, c.readinessProbe]) {
      const port = probe?.httpGet?.port;
      const number = typeof port === 'number' ? port : c.ports?.find((p) => p.name === port)?.containerPort;
      if (number !== app.port) problems.push(`${at}: probes must use port ${app.port}`);
    }
    const env = resolveEnv(c, configMaps, problems, at);
    const expected: Record<string, RegExp> = {
      ...COMMON_ENV,
      LOG_LEVEL: new RegExp(`^${environment.logLevel}$`),
      ...Object.fromEntries(Object.entries(app.env).map(([k, v]) => [k, new RegExp(`^${v.replace(/\./g, '\\.')}$`)])),
    };
    for (const [k, pattern] of Object.entries(expected)) {
      const v = env.get(k);
      if (!v || !('value' in v) || !pattern.test(v.value)) problems.push(`${at}: ${k} must match ${pattern}`);
    }
    for (const key of app.secrets) {
      const v = env.get(key);
      if (!v || !('secret' in v) || v.key !== key)
        problems.push(`${at}: ${key} must come from secretKeyRef ${SECRET_NAME}/${key}`);
    }
    for (const [variable, key] of Object.entries(app.configRefs ?? {})) {
      const ref = c.env?.find((e) => e.name === variable)?.valueFrom?.configMapKeyRef;
      if (ref?.name !== CONFIG_NAME || ref.key !== key)
        problems.push(`${at}: ${variable} must come from configMapKeyRef ${CONFIG_NAME}/${key}`);
    }
    for (const [variable, path] of Object.entries(app.fieldRefs ?? {})) {
      const v = env.get(variable);
      if (!v || !('field' in v) || v.field !== path)
        problems.push(`${at}: ${variable} must come from fieldRef ${path}`);
    }
    for (const variable of app.unset ?? [])
      if (env.has(variable)) problems.push(`${at}: ${variable} must not be set (production uses the default)`);
    const scaler = autoscalerOf(objects, name);
    const min = environment.hpaMin ?? app.scaling.min;
    const kind = app.scaling.by === 'cpu' ? 'hpa' : 'keda';
    if (scaler?.kind !== kind || scaler.min !== min || scaler.max !== app.scaling.max)
      problems.push(
        `${at}: ${kind === 'hpa' ? 'an HPA on CPU' : 'a KEDA ScaledObject on consumer lag'} must scale ${min}..${app.scaling.max}`,
      );
    if (kind === 'keda') {
      const bound = PARTITION_BOUND[name];
      const trigger = of<ScaledObject>(objects, 'ScaledObject').find((x) => x.spec.scaleTargetRef.name === name)?.spec
        .triggers[0];
      const m = trigger?.metadata ?? {};
      if (trigger?.type !== 'kafka' || m['topic'] !== bound?.topic || m['consumerGroup'] !== bound?.group)
        problems.push(
          `ScaledObject/${name}: must scale on the lag of consumer group ${bound?.group} on ${bound?.topic} (a kafka trigger)`,
        );
      if (m['bootstrapServersFromEnv'] !== 'KAFKA_BROKERS' || !env.has('KAFKA_BROKERS'))
        problems.push(
          `ScaledObject/${name}: must read the brokers from the Deployment's KAFKA_BROKERS (bootstrapServersFromEnv)`,
        );
      if (!(Number(m['lagThreshold']) > 0)) problems.push(`ScaledObject/${name}: needs a positive lagThreshold`);
      if (m['allowIdleConsumers'] === 'true')
        problems.push(`ScaledObject/${name}: allowIdleConsumers would scale past the partitions`);
    }
    const service = of<IService>(objects, 'Service').find((s) =>
      matches(s.spec?.selector, d.spec?.template.metadata?.labels),
    );
    if (app.service && (!service || (service.spec?.type ?? 'ClusterIP') !== 'ClusterIP'))
      problems.push(`${at}: needs a ClusterIP Service`);
    if (!app.service && service) problems.push(`${at}: has a Service although nothing calls it`);
  }
  return problems;
}

// ---------------------------------------------------------------------------------------------
// What particular apps need (checked on every environment, and shown to fail when broken)
// ---------------------------------------------------------------------------------------------

const deploymentOf = (objects: Manifest[], name: string): IDeployment | undefined =>
  of<IDeployment>(objects, 'Deployment').find((d) => d.metadata?.name === name);
const containerOf = (objects: Manifest[], name: string): IContainer | undefined =>
  deploymentOf(objects, name)?.spec?.template.spec?.containers[0];
const literalEnv = (c: IContainer | undefined, variable: string): string | undefined =>
  c?.env?.find((e) => e.name === variable)?.value;

/**
 * The redirector's click spool (apps/redirector/src/click-buffer.ts): while Kafka is down, clicks past
 * CLICK_BUFFER_MAX go to a spool file, replayed first once the broker is back; the file being replayed and a new
 * spool can exist at once, each up to CLICK_SPOOL_MAX_BYTES. The choice here (k8s/README.md) is a disk-backed
 * emptyDir of its own: it survives container restarts, not the pod. Going over an emptyDir's sizeLimit gets the pod
 * evicted, spool and all, so the limit must hold both files.
 */
function spoolViolations(objects: Manifest[]): string[] {
  const at = 'Deployment/redirector';
  const d = deploymentOf(objects, 'redirector');
  const c = containerOf(objects, 'redirector');
  if (!d || !c) return [`${at}: missing`];
  const problems: string[] = [];
  const dir = literalEnv(c, 'CLICK_SPOOL_DIR');
  const max = Number(literalEnv(c, 'CLICK_SPOOL_MAX_BYTES'));
  if (!dir?.startsWith('/'))
    problems.push(
      `${at}: CLICK_SPOOL_DIR must be an absolute path (the default is under $HOME, on the read-only root)`,
    );
  if (!Number.isInteger(max) || max <= 0)
    problems.push(`${at}: CLICK_SPOOL_MAX_BYTES must be set, so that the volume can be sized for it`);
  const mount = dir ? mountOf(c, dir) : undefined;
  const volume = d.spec?.template.spec?.volumes?.find((v) => v.name === mount?.name);
  if (!mount || !volume) return [...problems, `${at}: CLICK_SPOOL_DIR must be on a mounted volume`];
  if (mount.readOnly) problems.push(`${at}: the spool volume is mounted read-only`);
  if (c.volumeMounts?.find((m) => m.mountPath === '/tmp')?.name === mount.name)
    problems.push(`${at}: the spool needs a volume of its own, not /tmp's`);
  if (!volume.emptyDir)
    return [...problems, `${at}: the spool volume must be an emptyDir (k8s/README.md: why not a PersistentVolume)`];
  if (volume.emptyDir.medium === 'Memory')
    problems.push(`${at}: the spool volume must be on disk (medium Memory counts against the memory limit)`);
  const size = quantity(volume.emptyDir.sizeLimit);
  if (size === undefined || size < 2 * max + 64 * 2 ** 20)
    problems.push(
      `${at}: the spool volume's sizeLimit must hold the spool and its replay (2 x CLICK_SPOOL_MAX_BYTES + 64Mi)`,
    );
  const requested = quantity(c.resources?.requests?.['ephemeral-storage']);
  if (size !== undefined && (requested === undefined || requested < size))
    problems.push(
      `${at}: requests.ephemeral-storage must cover the spool volume (the scheduler then places the pod where it fits)`,
    );
  return problems;
}

/**
 * notifications-gateway holds long-lived watch streams (WebSocket, SSE). On SIGTERM the runtime closes them with a
 * reason while it drains the requests in flight, and the clients reconnect to another pod: rollouts, scale-in and
 * disruptions should move one pod's streams at a time, and any pod must be able to take any stream.
 */
function watchStreamViolations(objects: Manifest[]): string[] {
  const name = 'notifications-gateway';
  const d = deploymentOf(objects, name);
  if (!d) return [`Deployment/${name}: missing`];
  const problems: string[] = [];
  const rolling = d.spec?.strategy?.rollingUpdate;
  if (rolling?.maxSurge !== 1 || rolling.maxUnavailable !== 0)
    problems.push(
      `Deployment/${name}: roll out one pod at a time (maxSurge 1, maxUnavailable 0): each replaced pod's streams reconnect`,
    );
  const hpa = of<IHorizontalPodAutoscaler>(objects, 'HorizontalPodAutoscaler').find(
    (h) => h.spec?.scaleTargetRef.name === name,
  );
  const down = hpa?.spec?.behavior?.scaleDown;
  if (
    (down?.stabilizationWindowSeconds ?? 300) < 600 ||
    !down?.policies?.length ||
    down.policies.some((p) => p.type !== 'Pods' || p.value !== 1)
  )
    problems.push(
      `HPA/${name}: scale in one pod at a time, after >= 600 s of low load (each removed pod's streams reconnect)`,
    );
  const pdb = of<IPodDisruptionBudget>(objects, 'PodDisruptionBudget').find((p) => p.metadata?.name === name);
  if (pdb?.spec?.maxUnavailable !== 1) problems.push(`PDB/${name}: maxUnavailable 1 (one pod's streams at a time)`);
  const service = of<IService>(objects, 'Service').find((x) => x.metadata?.name === name);
  if ((service?.spec?.sessionAffinity ?? 'None') !== 'None')
    problems.push(
      `Service/${name}: no session affinity (every replica reads every inbox event; SSE resumes by Last-Event-ID anywhere)`,
    );
  return problems;
}

/** A value in place of each Secret key: as long as `openssl rand -base64 32`, which k8s/README.md asks for. */
const SECRET_PLACEHOLDER = 'x'.repeat(44);
const podField = (app: string, path: string): string =>
  path === 'metadata.name' ? `${app}-7d9c8b6f5d-x2x7q` : 'platform';

/** The app's settings, read by its own config loader from the environment its Deployment gives it (throws as the app would). */
async function appSettings(objects: Manifest[], name: string): Promise<unknown> {
  const app = APPS[name];
  const c = containerOf(objects, name);
  if (!app || !c) throw new Error(`no app or no container: ${name}`);
  const problems: string[] = [];
  const env = resolveEnv(c, of<IConfigMap>(objects, 'ConfigMap'), problems, name);
  if (problems.length > 0) throw new Error(problems.join('\n'));
  const raw: Record<string, string> = {};
  for (const [k, v] of env)
    raw[k] = 'value' in v ? v.value : 'secret' in v ? SECRET_PLACEHOLDER : podField(name, v.field);
  return (await app.config()).config.read(raw);
}

/** Where the app listens for its probes: its HTTP server, or a worker's health server. */
function listener(settings: unknown, http: boolean): unknown {
  const s = settings as { http?: { port?: unknown; host?: unknown }; health?: { port?: unknown; host?: unknown } };
  const server = http ? s.http : s.health;
  return server && { port: server.port, host: server.host };
}

// ---------------------------------------------------------------------------------------------
// The tests
// ---------------------------------------------------------------------------------------------

const rendered = new Map(ENVIRONMENTS.map((e) => [e.dir, render(e.dir)]));
const renderedOf = (dir: string): Manifest[] => {
  const r = rendered.get(dir);
  if (!r) throw new Error(`not rendered: ${dir}`);
  return r.objects;
};
let fields: UnknownFieldChecker;

beforeAll(() => {
  const all = [...rendered.values()].flatMap((r) => r.objects);
  fields = new UnknownFieldChecker(all);
  // compiles the CRD schemas of the kinds rendered (seconds for Strimzi's Kafka)
  for (const o of all) if (isCustom(o)) crds().errors(o);
}, 120_000);

describe('k8s manifests: files', () => {
  const files = yamlFilesUnder(K8S);

  it('finds the manifests', () => {
    expect(files.length).toBeGreaterThanOrEqual(15);
  });

  it.each(files.map((f) => [rel(f), f]))('%s parses as YAML 1.1 without duplicate keys', (_name, file) => {
    const docs = readYaml(file);
    expect(docs.length).toBeGreaterThan(0);
    for (const doc of docs) expect(isObject(doc)).toBe(true);
  });

  it('every YAML file is a kustomization, a resource or a patch of one (nothing is left out of the build)', () => {
    const used = new Set([...rendered.values()].flatMap((r) => [...r.files]));
    expect(files.filter((f) => !used.has(f)).map(rel)).toEqual([]);
  });

  it('commits no Secret and no secret values', () => {
    const all = [...rendered.values()].flatMap((r) => r.objects);
    expect(all.filter((o) => o.kind === 'Secret')).toEqual([]);
    expect([...secretKeysFromExample()].sort()).toEqual([
      'API_KEY_PEPPER',
      'OAUTH_ACCESS_TOKEN_KEYS',
      'OAUTH_SECRET_PEPPER',
      'SECRETS_SEALING_KEY',
      'SESSION_SECRET',
    ]);
    expect(readFileSync(join(K8S, 'base/secrets.example.env'), 'utf8')).not.toMatch(/^[A-Z_]+=(?!replace-with)/m);
  });
});

describe.each(ENVIRONMENTS.map((e) => [e.dir, e] as const))('k8s manifests: %s', (dir, environment) => {
  const objects = renderedOf(dir);

  it('renders the expected objects', () => {
    const summary = objects.map((o) => `${o.kind}/${o.metadata.name}`).sort();
    expect(summary).toEqual(
      [
        'ConfigMap/platform-config',
        ...Object.entries(APPS).flatMap(([name, app]) => [
          `Deployment/${name}`,
          app.scaling.by === 'cpu' ? `HorizontalPodAutoscaler/${name}` : `ScaledObject/${name}`,
          `PodDisruptionBudget/${name}`,
          ...(app.service ? [`Service/${name}`] : []),
        ]),
        ...INGRESSES.map((name) => `Ingress/${name}`),
        ...NETWORK_POLICIES.map((name) => `NetworkPolicy/${name}`),
        ...(environment.dependencies ? dependencyObjects(environment.dependencies) : []),
      ].sort(),
    );
  });

  it('every object validates against the Kubernetes schema, and every custom resource against its CRD', async () => {
    const errors = (await Promise.all(objects.map(schemaErrors))).flat();
    expect(errors).toEqual([]);
  });

  it('no object has fields unknown to the Kubernetes API', () => {
    expect(objects.flatMap((o) => fields.unknownFields(o))).toEqual([]);
  });

  it('follows the project rules', () => {
    expect(ruleViolations(objects, environment.imageTag ? { imageTag: environment.imageTag } : {})).toEqual([]);
  });

  it('deploys the apps with their settings', () => {
    expect(appExpectationViolations(objects, environment)).toEqual([]);
  });

  if (dir !== 'k8s/base')
    it('sets the namespace on every object', () => {
      const namespaces = new Set(objects.map((o) => o.metadata.namespace));
      expect(namespaces.size).toBe(1);
      expect([...namespaces][0]).toMatch(/^platform/);
    });
});

describe('k8s manifests: overlays', () => {
  const container = (dir: string, name: string): IContainer => {
    const d = renderedOf(dir).find(
      (o) => o.kind === 'Deployment' && o.metadata.name === name,
    ) as unknown as IDeployment;
    const c = d.spec?.template.spec?.containers[0];
    if (!c) throw new Error(`no container in ${dir} ${name}`);
    return c;
  };

  it('prod gives every app more CPU and memory than base, and dev pulls its moving tag', () => {
    for (const name of Object.keys(APPS)) {
      const base = container('k8s/base', name).resources;
      const prod = container('k8s/overlays/prod', name).resources;
      for (const kind of ['requests', 'limits'] as const)
        for (const r of ['cpu', 'memory'])
          expect(quantity(prod?.[kind]?.[r]), `${name} ${kind}.${r}`).toBeGreaterThan(
            quantity(base?.[kind]?.[r]) ?? Infinity,
          );
      // a strategic merge keeps everything else of the container
      expect(container('k8s/overlays/prod', name).readinessProbe).toEqual(container('k8s/base', name).readinessProbe);
      expect(container('k8s/overlays/dev', name).imagePullPolicy).toBe('Always');
      expect(container('k8s/overlays/prod', name).imagePullPolicy).toBeUndefined();
    }
  });
});

describe('k8s manifests: image compression', () => {
  const container = (dir: string, name: string): IContainer => {
    const d = renderedOf(dir).find(
      (o) => o.kind === 'Deployment' && o.metadata.name === name,
    ) as unknown as IDeployment;
    const c = d.spec?.template.spec?.containers[0];
    if (!c) throw new Error(`no container in ${dir} ${name}`);
    return c;
  };
  const configMaps = (dir: string): IConfigMap[] => of<IConfigMap>(renderedOf(dir), 'ConfigMap');

  it.each(ENVIRONMENTS.map((e) => [e.dir]))(
    '%s: the gateway and the worker read the quota and the retention from the same ConfigMap key',
    (dir) => {
      for (const variable of ['IMAGE_MONTHLY_QUOTA', 'IMAGE_RETENTION_SECONDS']) {
        const refs = ['images-gateway', 'image-worker'].map(
          (name) => container(dir, name).env?.find((e) => e.name === variable)?.valueFrom?.configMapKeyRef,
        );
        expect(refs[0], variable).toEqual({ name: CONFIG_NAME, key: variable });
        expect(refs[1], variable).toEqual(refs[0]);
        const value = configMaps(dir).find((cm) => cm.metadata?.name === CONFIG_NAME)?.data?.[variable];
        expect(value, variable).toMatch(/^\d+$/);
      }
    },
  );

  it('image-worker gets CPU and memory for its concurrent images in prod (>= 1 CPU / 1Gi requested, 2 CPU / 2Gi limit)', () => {
    const c = container('k8s/overlays/prod', 'image-worker');
    expect(quantity(c.resources?.requests?.['cpu'])).toBeGreaterThanOrEqual(1);
    expect(quantity(c.resources?.requests?.['memory'])).toBeGreaterThanOrEqual(2 ** 30);
    expect(quantity(c.resources?.limits?.['cpu'])).toBeGreaterThanOrEqual(2);
    expect(quantity(c.resources?.limits?.['memory'])).toBeGreaterThanOrEqual(2 * 2 ** 30);
    // one libvips thread per image on glibc: the images handled at once fit in the CPU limit
    const concurrency = Number(c.env?.find((e) => e.name === 'PARTITIONS_CONCURRENCY')?.value);
    expect(concurrency).toBeLessThanOrEqual(quantity(c.resources?.limits?.['cpu']) ?? 0);
  });
});

describe.each(ENVIRONMENTS.map((e) => [e.dir] as const))(
  'k8s manifests: %s: the apps accept their environment',
  (dir) => {
    it.each(Object.keys(APPS))(
      '%s: its own config schema (apps/<app>/src/config.ts) accepts what its Deployment gives it',
      async (name) => {
        const settings = await appSettings(renderedOf(dir), name);
        const app = APPS[name];
        // the probes reach what the app serves: all interfaces, on the probed port
        expect(listener(settings, app?.service ?? false)).toEqual({ port: app?.port, host: '0.0.0.0' });
      },
    );
  },
);

describe('k8s manifests: consumer groups and partitions', () => {
  it.each(Object.entries(PARTITION_BOUND))(
    '%s scales up to the partitions of its topic, and never below two pods outside dev',
    (name, { topic, group }) => {
      // the apps create their topics from the catalogue (and prod's KafkaTopics are checked against it): the autoscaler
      // is sized for the catalogue's partitions
      const entry = topicEntry(topic);
      expect(entry.consumers).toContain(group);
      expect(APPS[name]?.scaling.max).toBe(entry.partitions);
      for (const dir of ['k8s/base', 'k8s/overlays/prod']) {
        const scaler = autoscalerOf(renderedOf(dir), name);
        expect(scaler?.max, dir).toBe(entry.partitions);
        expect(scaler?.min, dir).toBeGreaterThanOrEqual(2);
      }
    },
  );

  it('image-worker, notifier, analytics-aggregator, links-worker and webhook-dispatcher scale on consumer lag; gateways and the redirector on CPU', () => {
    const byLag = Object.entries(APPS)
      .filter(([, app]) => app.scaling.by === 'lag')
      .map(([name]) => name)
      .sort();
    expect(byLag).toEqual(['analytics-aggregator', 'image-worker', 'links-worker', 'notifier', 'webhook-dispatcher']);
    for (const [name, app] of Object.entries(APPS)) if (app.service) expect(app.scaling.by, name).toBe('cpu');
  });

  it('the analytics aggregator folds no more partitions at once than links.clicks has', () => {
    const concurrency = Number(
      literalEnv(containerOf(renderedOf('k8s/overlays/prod'), 'analytics-aggregator'), 'PARTITIONS_CONCURRENCY'),
    );
    expect(concurrency).toBeGreaterThanOrEqual(1);
    expect(concurrency).toBeLessThanOrEqual(topicEntry('links.clicks').partitions);
  });
});

describe('k8s manifests: notifications', () => {
  it.each(ENVIRONMENTS.map((e) => [e.dir]))(
    '%s: the gateway and the notifier read the dispatch methods from the same ConfigMap key',
    (dir) => {
      const objects = renderedOf(dir);
      const refs = ['notifications-gateway', 'notifier'].map(
        (name) =>
          containerOf(objects, name)?.env?.find((e) => e.name === 'NOTIFIER_METHODS')?.valueFrom?.configMapKeyRef,
      );
      expect(refs[0]).toEqual({ name: CONFIG_NAME, key: 'NOTIFIER_METHODS' });
      expect(refs[1]).toEqual(refs[0]);
    },
  );

  it.each(ENVIRONMENTS.map((e) => [e.dir]))(
    '%s: the gateway closes its watch streams one pod at a time and anywhere',
    (dir) => {
      expect(watchStreamViolations(renderedOf(dir))).toEqual([]);
    },
  );

  it.each(ENVIRONMENTS.map((e) => [e.dir]))(
    '%s: the notifier has time to finish a send in progress (3 x SMTP_TIMEOUT_MS) before it is killed',
    (dir) => {
      const c = containerOf(renderedOf(dir), 'notifier');
      const grace = deploymentOf(renderedOf(dir), 'notifier')?.spec?.template.spec?.terminationGracePeriodSeconds ?? 0;
      const shutdown = Number(literalEnv(c, 'SHUTDOWN_TIMEOUT_MS'));
      expect(shutdown).toBeGreaterThan(3 * Number(literalEnv(c, 'SMTP_TIMEOUT_MS')));
      expect(shutdown).toBeLessThanOrEqual(grace * 1000 - SHUTDOWN_MARGIN_MS);
    },
  );
});

describe('k8s manifests: link shortening', () => {
  it.each(ENVIRONMENTS.map((e) => [e.dir]))(
    '%s: links-gateway and the redirector agree on the default short domain, links-gateway and links-worker on the API address',
    (dir) => {
      const objects = renderedOf(dir);
      const ref = (name: string, variable: string) =>
        containerOf(objects, name)?.env?.find((e) => e.name === variable)?.valueFrom?.configMapKeyRef;
      expect(ref('links-gateway', 'LINKS_DEFAULT_DOMAIN')).toEqual({ name: CONFIG_NAME, key: 'LINKS_DEFAULT_DOMAIN' });
      expect(ref('redirector', 'LINKS_DEFAULT_DOMAIN')).toEqual(ref('links-gateway', 'LINKS_DEFAULT_DOMAIN'));
      expect(ref('links-gateway', 'PUBLIC_BASE_URL')).toEqual({ name: CONFIG_NAME, key: 'LINKS_API_URL' });
      expect(ref('links-worker', 'PUBLIC_BASE_URL')).toEqual(ref('links-gateway', 'PUBLIC_BASE_URL'));
      const data = of<IConfigMap>(objects, 'ConfigMap').find((cm) => cm.metadata?.name === CONFIG_NAME)?.data ?? {};
      // a host as the redirector compares it with the request's Host (lower case, no scheme, no path)
      expect(data['LINKS_DEFAULT_DOMAIN']).toMatch(/^[a-z0-9.-]+(:\d+)?$/);
      expect(data['LINKS_API_URL']).toMatch(/^https:\/\/[^/]+$/);
    },
  );

  it.each(['notifications-gateway', 'links-gateway'])(
    '%s drains the requests waiting for a reply: SHUTDOWN_TIMEOUT_MS > COMMAND_TIMEOUT_MS',
    (name) => {
      const c = containerOf(renderedOf('k8s/overlays/prod'), name);
      expect(Number(literalEnv(c, 'SHUTDOWN_TIMEOUT_MS'))).toBeGreaterThan(Number(literalEnv(c, 'COMMAND_TIMEOUT_MS')));
    },
  );

  it.each(ENVIRONMENTS.map((e) => [e.dir]))(
    '%s: the redirector spools clicks to a disk-backed emptyDir of its own, sized for the spool and its replay',
    (dir) => {
      expect(spoolViolations(renderedOf(dir))).toEqual([]);
    },
  );

  it('the redirector gets two CPUs in prod (the redirect thread and the click publisher thread)', () => {
    const c = containerOf(renderedOf('k8s/overlays/prod'), 'redirector');
    expect(quantity(c?.resources?.limits?.['cpu'])).toBeGreaterThanOrEqual(2);
  });
});

describe('k8s manifests: the checks catch broken manifests', () => {
  const prod = (): Manifest[] => clone(renderedOf('k8s/overlays/prod'));
  const find = (objects: Manifest[], kind: string, name: string): Manifest => {
    const o = objects.find((x) => x.kind === kind && x.metadata.name === name);
    if (!o) throw new Error(`${kind}/${name} not found`);
    return o;
  };
  const deployment = (objects: Manifest[], name: string): IDeployment =>
    find(objects, 'Deployment', name) as unknown as IDeployment;
  const container = (objects: Manifest[], name: string): IContainer => {
    const c = deployment(objects, name).spec?.template.spec?.containers[0];
    if (!c) throw new Error('no container');
    return c;
  };

  const mutations: Array<[string, (objects: Manifest[]) => void, RegExp]> = [
    [
      'no readiness probe',
      (o) => void delete container(o, 'usermgmt-worker').readinessProbe,
      /readinessProbe on \/readyz/,
    ],
    [
      'liveness on another path',
      (o) => {
        const get = container(o, 'usermgmt-gateway').livenessProbe?.httpGet;
        if (get) get.path = '/health';
      },
      /livenessProbe must GET \/healthz/,
    ],
    [
      'probe on an undeclared port',
      (o) => {
        const get = container(o, 'webhook-dispatcher').readinessProbe?.httpGet;
        if (get) get.port = 'metrics';
      },
      /readinessProbe port metrics is not a declared container port/,
    ],
    [
      'runAsNonRoot false',
      (o) => {
        const sc = deployment(o, 'usermgmt-gateway').spec?.template.spec?.securityContext;
        if (sc) sc.runAsNonRoot = false;
      },
      /runAsNonRoot must be true/,
    ],
    [
      'no memory limit',
      (o) => void delete container(o, 'usermgmt-worker').resources?.limits?.['memory'],
      /resources\.limits\.memory must be set/,
    ],
    [
      'writable root filesystem',
      (o) => {
        const sc = container(o, 'webhook-dispatcher').securityContext;
        if (sc) sc.readOnlyRootFilesystem = false;
      },
      /readOnlyRootFilesystem must be true/,
    ],
    [
      'no /tmp emptyDir',
      (o) => void delete deployment(o, 'usermgmt-gateway').spec?.template.spec?.volumes,
      /\/tmp must be an emptyDir/,
    ],
    [
      'PDB selecting nothing',
      (o) => {
        (find(o, 'PodDisruptionBudget', 'usermgmt-worker') as unknown as IPodDisruptionBudget).spec = {
          maxUnavailable: 1,
          selector: { matchLabels: { 'app.kubernetes.io/name': 'usermgmt-workers' } },
        };
      },
      /Deployment\/usermgmt-worker: needs exactly one PDB/,
    ],
    [
      'ScaledObject targeting another name',
      (o) => {
        (find(o, 'ScaledObject', 'webhook-dispatcher') as unknown as ScaledObject).spec.scaleTargetRef.name =
          'webhook-dispatch';
      },
      /Deployment\/webhook-dispatcher: needs exactly one autoscaler/,
    ],
    [
      'a missing HPA',
      (o) => void o.splice(o.indexOf(find(o, 'HorizontalPodAutoscaler', 'usermgmt-gateway')), 1),
      /usermgmt-gateway: needs exactly one autoscaler/,
    ],
    [
      'an HPA beside a ScaledObject',
      (o) => {
        const hpa = clone(find(o, 'HorizontalPodAutoscaler', 'usermgmt-worker')) as unknown as IHorizontalPodAutoscaler;
        if (hpa.metadata && hpa.spec) [hpa.metadata.name, hpa.spec.scaleTargetRef.name] = ['notifier', 'notifier'];
        o.push(hpa as unknown as Manifest);
      },
      /Deployment\/notifier: needs exactly one autoscaler.*found 1 HPA, 1 ScaledObject/,
    ],
    [
      'a ScaledObject without maxReplicaCount',
      (o) => void delete (find(o, 'ScaledObject', 'links-worker') as unknown as ScaledObject).spec.maxReplicaCount,
      /ScaledObject\/links-worker: maxReplicaCount must be set/,
    ],
    [
      'a PDB selecting no workload',
      (o) => {
        const pdb = find(o, 'PodDisruptionBudget', 'mongo') as unknown as IPodDisruptionBudget;
        if (pdb.spec?.selector?.matchLabels) pdb.spec.selector.matchLabels['app.kubernetes.io/name'] = 'mongodb';
      },
      /PDB\/mongo: selects no workload's pods/,
    ],
    [
      'replicas next to an HPA',
      (o) => {
        const spec = deployment(o, 'usermgmt-worker').spec;
        if (spec) spec.replicas = 3;
      },
      /spec\.replicas is set/,
    ],
    [
      'selector not matching the pods',
      (o) => {
        const spec = deployment(o, 'usermgmt-worker').spec;
        if (spec) spec.selector = { matchLabels: { 'app.kubernetes.io/name': 'other' } };
      },
      /selector does not match/,
    ],
    [
      'shutdown outlasting the grace period',
      (o) => {
        const e = container(o, 'webhook-dispatcher').env?.find((x) => x.name === 'SHUTDOWN_TIMEOUT_MS');
        if (e) e.value = '30000';
      },
      /must end 2000 ms before terminationGracePeriodSeconds/,
    ],
    ['gateway without preStop', (o) => void delete container(o, 'usermgmt-gateway').lifecycle, /needs a preStop sleep/],
    [
      'secret from another Secret',
      (o) => {
        const ref = container(o, 'usermgmt-gateway').env?.find((x) => x.name === 'API_KEY_PEPPER')?.valueFrom
          ?.secretKeyRef;
        if (ref) ref.name = 'other-secrets';
      },
      /must come from Secret platform-secrets/,
    ],
    [
      'a committed Secret',
      (o) =>
        void o.push({
          apiVersion: 'v1',
          kind: 'Secret',
          metadata: { name: 'platform-secrets' },
          stringData: { API_KEY_PEPPER: 'x' },
        }),
      /Secret\/platform-secrets is committed/,
    ],
    [
      'no spreading',
      (o) => void delete deployment(o, 'usermgmt-worker').spec?.template.spec?.topologySpreadConstraints,
      /topologySpreadConstraint or preferred podAntiAffinity/,
    ],
    [
      'Service port not on the pods',
      (o) => {
        const port = (find(o, 'Service', 'usermgmt-gateway') as unknown as IService).spec?.ports?.[0];
        if (port) port.targetPort = 'web';
      },
      /targetPort web is not a port/,
    ],
    [
      'latest image',
      (o) => void (container(o, 'usermgmt-worker').image = 'platform/usermgmt-worker:latest'),
      /image tag latest/,
    ],
    [
      'env from a missing ConfigMap key',
      (o) => {
        const ref = container(o, 'scheduling-web').env?.find((x) => x.name === 'PUBLIC_URL')?.valueFrom
          ?.configMapKeyRef;
        if (ref) ref.key = 'SCHEDULING_WEB_URL';
      },
      /PUBLIC_URL refers to missing ConfigMap key platform-config\/SCHEDULING_WEB_URL/,
    ],
    [
      'secret key not in secrets.example.env',
      (o) => {
        const ref = container(o, 'scheduling-gateway').env?.find((x) => x.name === 'OAUTH_SECRET_PEPPER')?.valueFrom
          ?.secretKeyRef;
        if (ref) ref.key = 'OAUTH_PEPPER';
      },
      /uses key OAUTH_PEPPER, missing from k8s\/base\/secrets.example.env/,
    ],
    [
      'a *_DIR on the read-only root',
      (o) => {
        const c = container(o, 'redirector');
        c.volumeMounts = c.volumeMounts?.filter((m) => m.mountPath !== '/var/spool/clicks');
      },
      /CLICK_SPOOL_DIR=\/var\/spool\/clicks is not on a mounted volume/,
    ],
    [
      'an unbounded emptyDir',
      (o) => {
        const tmp = deployment(o, 'usermgmt-worker').spec?.template.spec?.volumes?.find((v) => v.name === 'tmp');
        if (tmp?.emptyDir) delete tmp.emptyDir.sizeLimit;
      },
      /emptyDir tmp needs a sizeLimit/,
    ],
    [
      'a pod field that changes while the pod runs',
      (o) => {
        const ref = container(o, 'notifier').env?.find((x) => x.name === 'REPLICA_ID')?.valueFrom?.fieldRef;
        if (ref) ref.fieldPath = 'status.podIP';
      },
      /REPLICA_ID reads pod field status.podIP/,
    ],
  ];

  it('the unmodified prod render passes (the baseline for the mutations below)', () => {
    expect(ruleViolations(prod(), { imageTag: /^\d+\.\d+\.\d+$/ })).toEqual([]);
  });

  it.each(mutations)('%s is a rule violation', (_name, mutate, expected) => {
    const objects = prod();
    mutate(objects);
    const problems = ruleViolations(objects, { imageTag: /^\d+\.\d+\.\d+$/ });
    expect(
      problems.some((p) => expected.test(p)),
      problems.join('\n'),
    ).toBe(true);
  });

  it('a redirector spool on /tmp, in memory, too small or not reserved is a spool violation', () => {
    const volumes = (o: Manifest[]) => deployment(o, 'redirector').spec?.template.spec?.volumes ?? [];
    const spool = (o: Manifest[]) => volumes(o).find((v) => v.name === 'click-spool');

    let objects = prod();
    const env = container(objects, 'redirector').env?.find((x) => x.name === 'CLICK_SPOOL_DIR');
    if (env) env.value = '/tmp/clicks';
    expect(spoolViolations(objects)).toContain(
      `Deployment/redirector: the spool needs a volume of its own, not /tmp's`,
    );

    objects = prod();
    const memory = spool(objects);
    if (memory) memory.emptyDir = { medium: 'Memory', sizeLimit: '1280Mi' };
    expect(spoolViolations(objects)).toEqual([expect.stringMatching(/must be on disk/)]);

    objects = prod();
    const small = spool(objects);
    if (small) small.emptyDir = { sizeLimit: '1Gi' }; // exactly 2 x 512 MiB: no room for the progress file and a batch
    expect(spoolViolations(objects)).toEqual([expect.stringMatching(/sizeLimit must hold the spool and its replay/)]);

    objects = prod();
    delete container(objects, 'redirector').resources?.requests?.['ephemeral-storage'];
    expect(spoolViolations(objects)).toEqual([expect.stringMatching(/ephemeral-storage must cover the spool volume/)]);

    objects = prod();
    const persistent = spool(objects);
    if (persistent) {
      delete persistent.emptyDir;
      persistent.persistentVolumeClaim = { claimName: 'clicks' };
    }
    expect(spoolViolations(objects)).toEqual([expect.stringMatching(/must be an emptyDir/)]);
  });

  it('a notifications gateway that rolls, scales in or is disrupted several pods at a time is a watch-stream violation', () => {
    const objects = prod();
    const spec = deployment(objects, 'notifications-gateway').spec;
    if (spec) spec.strategy = { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: 0 } };
    const hpa = find(
      objects,
      'HorizontalPodAutoscaler',
      'notifications-gateway',
    ) as unknown as IHorizontalPodAutoscaler;
    if (hpa.spec)
      hpa.spec.behavior = {
        scaleDown: { stabilizationWindowSeconds: 300, policies: [{ type: 'Percent', value: 50, periodSeconds: 60 }] },
      };
    const pdb = find(objects, 'PodDisruptionBudget', 'notifications-gateway') as unknown as IPodDisruptionBudget;
    if (pdb.spec) pdb.spec.maxUnavailable = '50%';
    const service = find(objects, 'Service', 'notifications-gateway') as unknown as IService;
    if (service.spec) service.spec.sessionAffinity = 'ClientIP';
    expect(watchStreamViolations(objects)).toEqual([
      expect.stringMatching(/^Deployment\/notifications-gateway: roll out one pod at a time/),
      expect.stringMatching(/^HPA\/notifications-gateway: scale in one pod at a time/),
      expect.stringMatching(/^PDB\/notifications-gateway: maxUnavailable 1/),
      expect.stringMatching(/^Service\/notifications-gateway: no session affinity/),
    ]);
  });

  it('an app that would not start with its environment is caught by its own config schema', async () => {
    let objects = prod();
    const c = container(objects, 'notifier');
    c.env = c.env?.filter((x) => x.name !== 'API_KEY_PEPPER');
    await expect(appSettings(objects, 'notifier')).rejects.toThrow(/API_KEY_PEPPER is required/);

    // the webhook method without its target: the notifier refuses to start
    objects = prod();
    const config = find(objects, 'ConfigMap', CONFIG_NAME) as unknown as IConfigMap;
    if (config.data) config.data['NOTIFIER_METHODS'] = 'smtp,webhook';
    await expect(appSettings(objects, 'notifier')).rejects.toThrow(
      /NOTIFIER_WEBHOOK_URL and NOTIFIER_WEBHOOK_SECRET are required/,
    );
    await expect(appSettings(objects, 'notifications-gateway')).resolves.toBeDefined();

    objects = prod();
    const port = container(objects, 'links-worker').env?.find((x) => x.name === 'HEALTH_PORT');
    if (port) port.value = 'ninety';
    await expect(appSettings(objects, 'links-worker')).rejects.toThrow(/HEALTH_PORT is invalid/);
  });

  it('a public URL copied as a literal instead of read from the ConfigMap is an app violation', () => {
    const objects = prod();
    const env = container(objects, 'scheduling-gateway').env ?? [];
    const i = env.findIndex((x) => x.name === 'PUBLIC_BASE_URL');
    env[i] = { name: 'PUBLIC_BASE_URL', value: 'https://api.scheduling.example.com' };
    expect(appExpectationViolations(objects, { dir: 'k8s/overlays/prod', logLevel: 'info' })).toEqual([
      'Deployment/scheduling-gateway: PUBLIC_BASE_URL must come from configMapKeyRef platform-config/SCHEDULING_API_URL',
    ]);
  });

  it('a quota copied as a literal into one image app is an app violation', () => {
    const objects = prod();
    const env = container(objects, 'image-worker').env ?? [];
    const i = env.findIndex((x) => x.name === 'IMAGE_MONTHLY_QUOTA');
    env[i] = { name: 'IMAGE_MONTHLY_QUOTA', value: '500' };
    expect(appExpectationViolations(objects, { dir: 'k8s/overlays/prod', logLevel: 'info' })).toEqual([
      'Deployment/image-worker: IMAGE_MONTHLY_QUOTA must match /^0$/',
      'Deployment/image-worker: IMAGE_MONTHLY_QUOTA must come from configMapKeyRef platform-config/IMAGE_MONTHLY_QUOTA',
    ]);
  });

  it('a store endpoint override in a deployed image worker is an app violation', () => {
    const objects = prod();
    container(objects, 'image-worker').env?.push({ name: 'STORE_S3_ENDPOINT', value: 'http://s3:9000' });
    expect(appExpectationViolations(objects, { dir: 'k8s/overlays/prod', logLevel: 'info' })).toEqual([
      'Deployment/image-worker: STORE_S3_ENDPOINT must not be set (production uses the default)',
    ]);
  });

  it('a wrong type or a missing required field is a schema error', async () => {
    const objects = prod();
    const d = deployment(objects, 'usermgmt-gateway') as unknown as {
      spec: {
        replicas: unknown;
        template: { spec: { containers: Array<{ ports: Array<{ containerPort: unknown }> }> } };
      };
    };
    d.spec.replicas = 'two';
    const c = d.spec.template.spec.containers[0];
    if (c?.ports[0]) c.ports[0].containerPort = 'http';
    const errors = await schemaErrors(find(objects, 'Deployment', 'usermgmt-gateway'));
    expect(errors.join('\n')).toMatch(/spec\/replicas must be integer/);
    expect(errors.join('\n')).toMatch(/containerPort must be integer/);

    const hpa = find(objects, 'HorizontalPodAutoscaler', 'usermgmt-worker') as unknown as {
      spec: Record<string, unknown>;
    };
    delete hpa.spec['maxReplicas'];
    expect((await schemaErrors(find(objects, 'HorizontalPodAutoscaler', 'usermgmt-worker'))).join('\n')).toMatch(
      /maxReplicas/,
    );
  });

  it('a removed beta API or an unknown kind is a schema error', async () => {
    const hpa = find(prod(), 'HorizontalPodAutoscaler', 'usermgmt-worker');
    expect(await schemaErrors({ ...hpa, apiVersion: 'autoscaling/v2beta2' })).toEqual([
      expect.stringMatching(/not a GA API version/),
    ]);
    expect(await schemaErrors({ ...hpa, kind: 'HorizontalPodAutoScaler' })).toEqual([
      expect.stringMatching(/no Kubernetes schema/),
    ]);
  });

  it('a misspelt or misplaced field is an unknown field', () => {
    const objects = prod();
    const c = container(objects, 'usermgmt-worker') as unknown as Record<string, unknown>;
    c['livenesProbe'] = c['livenessProbe'];
    const spec = deployment(objects, 'usermgmt-worker').spec?.template.spec as unknown as Record<string, unknown>;
    spec['readOnlyRootFilesystem'] = true; // belongs in a container securityContext
    const capabilities = (c['securityContext'] as { capabilities: Record<string, unknown> }).capabilities;
    capabilities['dorp'] = ['ALL'];
    const volumes = spec['volumes'] as Array<Record<string, unknown>>;
    volumes.push({ name: 'cache', emptyDir: { sizelimit: '1Gi' } });
    expect(fields.unknownFields(find(objects, 'Deployment', 'usermgmt-worker'))).toEqual([
      `Deployment/usermgmt-worker:.spec.template.spec.containers[0].securityContext.capabilities unknown field 'dorp'`,
      `Deployment/usermgmt-worker:.spec.template.spec.containers[0] unknown field 'livenesProbe'`,
      `Deployment/usermgmt-worker:.spec.template.spec.volumes[1].emptyDir unknown field 'sizelimit'`,
      `Deployment/usermgmt-worker:.spec.template.spec unknown field 'readOnlyRootFilesystem'`,
    ]);
    const hpa = find(objects, 'HorizontalPodAutoscaler', 'usermgmt-worker') as unknown as {
      spec: { metrics: Array<{ resource: { target: Record<string, unknown> } }> };
    };
    const target = hpa.spec.metrics[0]?.resource.target;
    if (target) target['averageUtilisation'] = 50;
    expect(fields.unknownFields(find(objects, 'HorizontalPodAutoscaler', 'usermgmt-worker'))).toEqual([
      `HorizontalPodAutoscaler/usermgmt-worker:.spec.metrics[0].resource.target unknown field 'averageUtilisation'`,
    ]);
  });
});

describe('k8s manifests: helpers', () => {
  it('splits image references like kustomize', () => {
    expect(splitImage('platform/a')).toEqual({ name: 'platform/a' });
    expect(splitImage('registry:5000/platform/a:1.2.3')).toEqual({ name: 'registry:5000/platform/a', tag: '1.2.3' });
    expect(splitImage('platform/a@sha256:abc')).toEqual({ name: 'platform/a', digest: 'sha256:abc' });
  });

  it('parses Kubernetes quantities', () => {
    expect(quantity('250m')).toBe(0.25);
    expect(quantity('2')).toBe(2);
    expect(quantity('512Mi')).toBe(512 * 2 ** 20);
    expect(quantity('1Gi')).toBeGreaterThan(quantity('768Mi') ?? Infinity);
    expect(quantity('lots')).toBeUndefined();
  });
});

// ---------------------------------------------------------------------------------------------
// Kafka topics, public hosts, network policies and the dependencies' addresses
// ---------------------------------------------------------------------------------------------

interface KafkaTopic {
  metadata: { name: string; labels?: Record<string, string> };
  spec: { topicName?: string; partitions?: number; replicas?: number; config?: Record<string, unknown> };
}

/** The KafkaTopics against the topic catalogue in code: every topic and its dead-letter topic, nothing else. */
function topicViolations(objects: Manifest[]): string[] {
  const problems: string[] = [];
  const topics = of<KafkaTopic>(objects, 'KafkaTopic');
  const expected = TOPIC_CATALOGUE.flatMap((t) => [
    { name: t.name, partitions: t.partitions, retentionMs: t.retentionMs },
    {
      name: `${t.name}${DEAD_LETTER.suffix}`,
      partitions: DEAD_LETTER.partitions,
      retentionMs: DEAD_LETTER.retentionMs,
    },
  ]);
  const cluster = of<Manifest>(objects, 'Kafka')[0]?.metadata.name;
  for (const e of expected) {
    const t = topics.find((x) => (x.spec.topicName ?? x.metadata.name) === e.name);
    if (!t) {
      problems.push(`KafkaTopic ${e.name}: missing`);
      continue;
    }
    if (t.spec.partitions !== e.partitions)
      problems.push(`KafkaTopic ${e.name}: ${t.spec.partitions} partitions, the catalogue says ${e.partitions}`);
    if (Number(t.spec.config?.['retention.ms']) !== e.retentionMs)
      problems.push(
        `KafkaTopic ${e.name}: retention.ms ${String(t.spec.config?.['retention.ms'])}, the catalogue says ${e.retentionMs}`,
      );
    if ((t.spec.replicas ?? 0) < 3 || Number(t.spec.config?.['min.insync.replicas']) !== 2)
      problems.push(`KafkaTopic ${e.name}: needs 3 replicas, 2 in sync`);
    if (t.metadata.labels?.['strimzi.io/cluster'] !== cluster)
      problems.push(`KafkaTopic ${e.name}: strimzi.io/cluster must name the Kafka cluster ${cluster}`);
  }
  for (const t of topics)
    if (!expected.some((e) => e.name === (t.spec.topicName ?? t.metadata.name)))
      problems.push(`KafkaTopic ${t.metadata.name}: not in the topic catalogue`);
  return problems;
}

interface Ingress {
  metadata: { name: string; annotations?: Record<string, string> };
  spec: {
    ingressClassName?: string;
    defaultBackend?: { service?: { name: string; port: { name?: string; number?: number } } };
    tls?: Array<{ hosts?: string[]; secretName?: string }>;
    rules?: Array<{
      host?: string;
      http?: {
        paths: Array<{
          path?: string;
          backend: { service?: { name: string; port: { name?: string; number?: number } } };
        }>;
      };
    }>;
  };
}

const NGINX = 'nginx.ingress.kubernetes.io/';
const hostOf = (url: string | undefined): string | undefined =>
  url ? new URL(url.includes('://') ? url : `https://${url}`).hostname : undefined;

/** The public hosts reach the right Service, over TLS, with the body size and timeouts the apps need. */
function ingressViolations(objects: Manifest[]): string[] {
  const problems: string[] = [];
  const ingresses = of<Ingress>(objects, 'Ingress');
  const services = of<IService>(objects, 'Service');
  const data = of<IConfigMap>(objects, 'ConfigMap').find((cm) => cm.metadata?.name === CONFIG_NAME)?.data ?? {};
  const routes = ingresses.flatMap((i) =>
    (i.spec.rules ?? []).flatMap((r) =>
      (r.http?.paths ?? []).map((p) => ({ ingress: i, host: r.host, path: p.path, service: p.backend.service })),
    ),
  );
  const backendOk = (b: { name: string; port: { name?: string; number?: number } } | undefined): boolean =>
    !!b &&
    !!services
      .find((s) => s.metadata?.name === b.name)
      ?.spec?.ports?.some((p) => (b.port.name !== undefined ? p.name === b.port.name : p.port === b.port.number));
  for (const r of routes)
    if (!backendOk(r.service))
      problems.push(
        `Ingress/${r.ingress.metadata.name}: ${r.host}${r.path} goes to no Service port (${r.service?.name})`,
      );
  for (const i of ingresses) {
    if (i.spec.ingressClassName !== 'nginx')
      problems.push(`Ingress/${i.metadata.name}: ingressClassName must be nginx (the annotations are ingress-nginx's)`);
    for (const r of i.spec.rules ?? [])
      if (!i.spec.tls?.some((t) => t.hosts?.includes(r.host ?? '')))
        problems.push(`Ingress/${i.metadata.name}: ${r.host} has no TLS`);
  }
  const expectHost = (host: string | undefined, service: string, what: string): Ingress | undefined => {
    const route = routes.find((r) => r.host === host && r.path === '/' && r.service?.name === service);
    if (!route) problems.push(`${what} (${host}) must be routed to Service ${service}`);
    return route?.ingress;
  };
  expectHost(hostOf(data['SCHEDULING_API_URL']), 'scheduling-gateway', 'SCHEDULING_API_URL');
  expectHost(hostOf(data['SCHEDULING_APP_URL']), 'scheduling-web', 'SCHEDULING_APP_URL');
  expectHost(hostOf(data['LINKS_API_URL']), 'links-gateway', 'LINKS_API_URL');
  const short = expectHost(hostOf(data['LINKS_DEFAULT_DOMAIN']), 'redirector', 'LINKS_DEFAULT_DOMAIN');
  if (short?.spec.defaultBackend?.service?.name !== 'redirector' || !backendOk(short.spec.defaultBackend.service))
    problems.push(
      `Ingress/${short?.metadata.name ?? '?'}: branded short domains need the redirector as the default backend`,
    );
  for (const name of ['usermgmt-gateway', 'notifications-gateway'])
    if (!routes.some((r) => r.service?.name === name && r.path === '/')) problems.push(`Service ${name} is not public`);

  const images = expectHost(hostOf(data['IMAGES_API_URL']), 'images-gateway', 'IMAGES_API_URL');
  const gateway = containerOf(objects, 'images-gateway');
  const upload = Number(literalEnv(gateway, 'UPLOAD_LIMIT_BYTES'));
  const wait = Number(literalEnv(gateway, 'COMMAND_TIMEOUT_MS')) / 1000;
  const a = images?.metadata.annotations ?? {};
  if (!((quantity(a[`${NGINX}proxy-body-size`]?.replace(/([kmg])$/i, (u) => `${u.toUpperCase()}i`)) ?? 0) >= upload))
    problems.push(`Ingress/images: proxy-body-size must allow UPLOAD_LIMIT_BYTES (${upload})`);
  for (const timeout of ['proxy-read-timeout', 'proxy-send-timeout'])
    if (!(Number(a[`${NGINX}${timeout}`]) > wait))
      problems.push(`Ingress/images: ${timeout} must exceed COMMAND_TIMEOUT_MS (${wait} s)`);

  const watch = routes.find((r) => r.service?.name === 'notifications-gateway')?.ingress.metadata.annotations ?? {};
  const ping = Number(literalEnv(containerOf(objects, 'notifications-gateway'), 'WATCH_PING_MS') ?? 15_000) / 1000;
  for (const timeout of ['proxy-read-timeout', 'proxy-send-timeout'])
    if (!(Number(watch[`${NGINX}${timeout}`]) >= 60 * ping))
      problems.push(`Ingress/notifications: ${timeout} must keep watch streams open (>= 60 pings)`);
  if (watch[`${NGINX}proxy-buffering`] !== 'off')
    problems.push('Ingress/notifications: proxy-buffering must be off (Server-Sent Events)');
  return problems;
}

const NAMESPACE_OF = (objects: Manifest[]): string => objects[0]?.metadata.namespace ?? 'default';
/** A workload's pod labels; without the workload (the base has no dependencies), the labels the policies expect of it. */
const podLabelsOf = (objects: Manifest[], kind: string, name: string): Record<string, string> =>
  (objects.find((o) => o.kind === kind && o.metadata.name === name) as unknown as IDeployment | undefined)?.spec
    ?.template.metadata?.labels ?? {
    'app.kubernetes.io/name': name,
  };
/** Pod labels of a Kafka node: a dev StatefulSet's, or what Strimzi gives its broker pods. */
function kafkaPod(objects: Manifest[]): Record<string, string> {
  const cluster = of<Manifest>(objects, 'Kafka')[0]?.metadata.name;
  return cluster
    ? { 'app.kubernetes.io/name': 'kafka', 'strimzi.io/cluster': cluster, 'strimzi.io/kind': 'Kafka' }
    : podLabelsOf(objects, 'StatefulSet', 'kafka');
}

/** Strimzi writes the Kafka pods' ingress policy from the listener's networkPolicyPeers: evaluate those instead. */
function strimziAdmits(objects: Manifest[], from: Endpoint, namespace: string, port: number): boolean {
  const kafka = of<{ spec: { kafka: { listeners: Array<{ port: number; networkPolicyPeers?: unknown[] }> } } }>(
    objects,
    'Kafka',
  )[0];
  const listener = kafka?.spec.kafka.listeners.find((l) => l.port === port);
  if (!listener) return false;
  if (!listener.networkPolicyPeers?.length) return true;
  const policy = {
    spec: { podSelector: {}, policyTypes: ['Ingress'], ingress: [{ from: listener.networkPolicyPeers }] },
  };
  return allowed([policy as never], namespace, from, { namespace, labels: { 'strimzi.io/cluster': 'x' } }, port);
}

const INTERNET = '93.184.216.34';
const PRIVATE = ['10.0.0.10', '172.20.0.1', '192.168.1.1', '169.254.169.254'];

/** Each app reaches only what it needs; the dependencies admit only the apps. */
function networkViolations(objects: Manifest[], environment: Environment): string[] {
  const problems: string[] = [];
  const policies = of<INetworkPolicy>(objects, 'NetworkPolicy');
  const ns = NAMESPACE_OF(objects);
  const deny = policies.find(
    (p) => Object.keys(p.spec?.podSelector ?? {}).length === 0 && !p.spec?.ingress && !p.spec?.egress,
  );
  if (!deny || !(['Ingress', 'Egress'] as const).every((t) => deny.spec?.policyTypes?.includes(t)))
    problems.push('no default-deny NetworkPolicy (all pods, Ingress and Egress, no rules)');
  const pod = (labels: Record<string, string>, namespace = ns): Endpoint => ({ namespace, labels });
  const dns = pod({ 'k8s-app': 'kube-dns' }, 'kube-system');
  const controller = pod({ 'app.kubernetes.io/name': 'ingress-nginx' }, 'ingress-nginx');
  const kafka = pod(kafkaPod(objects));
  const mongo = pod(podLabelsOf(objects, 'StatefulSet', 'mongo'));
  const redis = pod(podLabelsOf(objects, 'StatefulSet', 'redis'));
  const smtp = pod({ 'app.kubernetes.io/name': 'relay' }, 'mail');
  const withDependencies = environment.dependencies !== undefined;
  const strimzi = of(objects, 'Kafka').length > 0;
  const dependencies = [kafka, mongo, redis];
  const reach = (from: Endpoint, to: Endpoint, port: number, protocol = 'TCP'): boolean =>
    to === kafka && strimzi
      ? allowed(policies, ns, from, to, port, protocol, false) && strimziAdmits(objects, from, ns, port)
      : // the base deploys no dependencies, so none of their ingress policies: the apps' egress is what it decides
        allowed(policies, ns, from, to, port, protocol, withDependencies || !dependencies.includes(to));
  for (const [name, app] of Object.entries(APPS)) {
    const me = pod(podLabelsOf(objects, 'Deployment', name));
    const check = (what: string, actual: boolean, expected: boolean): void => {
      if (actual !== expected) problems.push(`${name}: ${what} ${expected ? 'must be allowed' : 'must be denied'}`);
    };
    check('DNS', reach(me, dns, 53, 'UDP'), true);
    check('Kafka', reach(me, kafka, 9092), true);
    check('MongoDB', reach(me, mongo, 27017), true);
    check('Redis', reach(me, redis, 6379), name !== 'redirector');
    check('the SMTP relay', reach(me, smtp, 587), name === 'notifier');
    check(
      'the internet on 443',
      reach(me, { ip: INTERNET }, 443),
      ['image-worker', 'webhook-dispatcher'].includes(name),
    );
    for (const ip of PRIVATE) check(`${ip} (private)`, reach(me, { ip }, 443) || reach(me, { ip }, 80), false);
    check(`ingress-nginx to port ${app.port}`, reach(controller, me, app.port), app.service);
    check('another app to it', reach(pod(podLabelsOf(objects, 'Deployment', 'usermgmt-worker')), me, app.port), false);
  }
  if (withDependencies) {
    const stranger = pod({ 'app.kubernetes.io/name': 'debug' });
    if (reach(stranger, mongo, 27017) || reach(stranger, redis, 6379) || reach(stranger, kafka, 9092))
      problems.push('a pod that is not a platform app reaches MongoDB, Redis or Kafka');
    if (!reach(pod({ 'app.kubernetes.io/name': 'keda-operator' }, 'keda'), kafka, 9092))
      problems.push('KEDA cannot read the consumer lag from Kafka');
    const members = podLabelsOf(objects, 'StatefulSet', 'mongo');
    if (!reach(pod(members), pod(members), 27017)) problems.push('MongoDB members cannot replicate');
    if (!reach(pod(podLabelsOf(objects, 'Job', 'mongo-init-replica-set')), mongo, 27017))
      problems.push('the replica-set init Job cannot reach MongoDB');
  }
  return problems;
}

/** The apps' addresses of Kafka, MongoDB and Redis are what the overlay brings. */
function addressViolations(objects: Manifest[], dependencies: NonNullable<Environment['dependencies']>): string[] {
  const problems: string[] = [];
  const data = of<IConfigMap>(objects, 'ConfigMap').find((cm) => cm.metadata?.name === CONFIG_NAME)?.data ?? {};
  const services = new Set(of<IService>(objects, 'Service').map((s) => s.metadata?.name));
  const kafka = of<Manifest>(objects, 'Kafka')[0];
  if (kafka) services.add(`${kafka.metadata.name}-kafka-bootstrap`); // Strimzi's bootstrap Service
  const statefulSet = (name: string) =>
    of<{ metadata: { name: string }; spec: { replicas?: number; serviceName?: string } }>(objects, 'StatefulSet').find(
      (s) => s.metadata.name === name,
    );
  /** host `<set>-<n>.<service>` is a member of a StatefulSet here; a plain host is a Service here. */
  const known = (host: string): boolean => {
    const m = /^([a-z0-9-]+)-(\d+)\.([a-z0-9-]+)$/.exec(host);
    if (!m) return services.has(host);
    const set = statefulSet(m[1] ?? '');
    return (
      !!set && set.spec.serviceName === m[3] && Number(m[2]) < (set.spec.replicas ?? 1) && services.has(m[3] ?? '')
    );
  };
  for (const broker of (data['KAFKA_BROKERS'] ?? '').split(','))
    if (!known(broker.split(':')[0] ?? '')) problems.push(`KAFKA_BROKERS: ${broker} is nothing this overlay deploys`);
  if (dependencies.kafka === 'strimzi' && data['KAFKA_BROKERS'] !== `${kafka?.metadata.name}-kafka-bootstrap:9092`)
    problems.push('KAFKA_BROKERS must be the Strimzi bootstrap Service');
  const mongoHosts = /^mongodb:\/\/([^/]+)\//.exec(data['MONGO_URL'] ?? '')?.[1]?.split(',') ?? [];
  for (const h of mongoHosts)
    if (!known(h.split(':')[0] ?? '')) problems.push(`MONGO_URL: ${h} is nothing this overlay deploys`);
  if (
    mongoHosts.length !== dependencies.mongoMembers ||
    statefulSet('mongo')?.spec.replicas !== dependencies.mongoMembers
  )
    problems.push(`MongoDB must be a replica set of ${dependencies.mongoMembers}, every member in MONGO_URL`);
  const init = containerOfKind(objects, 'Job', 'mongo-init-replica-set');
  if (init?.env?.find((e) => e.name === 'MEMBERS')?.value !== mongoHosts.join(','))
    problems.push('the init Job must initiate the members MONGO_URL lists');
  const redis = hostOf((data['REDIS_URL'] ?? '').replace(/^rediss?:\/\//, 'https://'));
  if (!redis || !known(redis)) problems.push(`REDIS_URL: ${redis} is nothing this overlay deploys`);
  return problems;
}

const containerOfKind = (objects: Manifest[], kind: string, name: string): IContainer | undefined =>
  (objects.find((o) => o.kind === kind && o.metadata.name === name) as unknown as IDeployment | undefined)?.spec
    ?.template.spec?.containers[0];

describe.each(ENVIRONMENTS.map((e) => [e.dir, e] as const))(
  'k8s manifests: %s: public hosts and network policies',
  (dir, environment) => {
    it('routes every public host to its app with the body size and timeouts the app needs', () => {
      expect(ingressViolations(renderedOf(dir))).toEqual([]);
    });

    it('denies by default and lets each app reach only what it needs', () => {
      expect(networkViolations(renderedOf(dir), environment)).toEqual([]);
    });
  },
);

describe('k8s manifests: the dependencies the overlays bring', () => {
  it.each(ENVIRONMENTS.filter((e) => e.dependencies).map((e) => [e.dir, e] as const))(
    '%s: the apps address the Kafka, MongoDB and Redis it deploys',
    (dir, environment) => {
      expect(
        addressViolations(renderedOf(dir), environment.dependencies ?? { kafka: 'strimzi', mongoMembers: 3 }),
      ).toEqual([]);
    },
  );

  it('prod: one KafkaTopic per topic of the catalogue (libs/contracts) and per dead-letter topic, with its partitions and retention', () => {
    expect(topicViolations(renderedOf('k8s/overlays/prod'))).toEqual([]);
  });

  it('prod: Kafka runs in KRaft mode on node pools, three nodes that are controllers and brokers, on Kafka 3.9', () => {
    const objects = renderedOf('k8s/overlays/prod');
    const kafka = of<{
      metadata: { name: string; annotations?: Record<string, string> };
      spec: {
        kafka: { version: string; config: Record<string, unknown> };
        entityOperator?: { topicOperator?: unknown };
      };
    }>(objects, 'Kafka');
    expect(kafka).toHaveLength(1);
    expect(kafka[0]?.metadata.annotations).toMatchObject({
      'strimzi.io/kraft': 'enabled',
      'strimzi.io/node-pools': 'enabled',
    });
    expect(kafka[0]?.spec.kafka.version).toMatch(/^3\.9\./);
    expect(kafka[0]?.spec.entityOperator?.topicOperator).toBeDefined();
    const pools = of<{ metadata: { labels?: Record<string, string> }; spec: { replicas: number; roles: string[] } }>(
      objects,
      'KafkaNodePool',
    );
    expect(
      pools.map((p) => [p.metadata.labels?.['strimzi.io/cluster'], p.spec.replicas, [...p.spec.roles].sort()]),
    ).toEqual([['kafka', 3, ['broker', 'controller']]]);
    expect(Number(kafka[0]?.spec.kafka.config['min.insync.replicas'])).toBe(2);
  });

  const prod = (): Manifest[] => clone(renderedOf('k8s/overlays/prod'));
  const find = (objects: Manifest[], kind: string, name: string): Manifest => {
    const o = objects.find((x) => x.kind === kind && x.metadata.name === name);
    if (!o) throw new Error(`${kind}/${name} not found`);
    return o;
  };

  it('a KafkaTopic that differs from the catalogue, or a topic missing, is a topic violation', () => {
    const objects = prod();
    (find(objects, 'KafkaTopic', 'links.clicks') as unknown as KafkaTopic).spec.partitions = 6;
    (find(objects, 'KafkaTopic', 'images.commands') as unknown as KafkaTopic).spec.config = {
      'retention.ms': 1000,
      'min.insync.replicas': 2,
    };
    objects.splice(objects.indexOf(find(objects, 'KafkaTopic', 'webhooks.deliveries.dlq')), 1);
    expect(topicViolations(objects)).toEqual([
      'KafkaTopic images.commands: retention.ms 1000, the catalogue says 86400000',
      'KafkaTopic links.clicks: 6 partitions, the catalogue says 12',
      'KafkaTopic webhooks.deliveries.dlq: missing',
    ]);
  });

  it('a custom resource that its CRD rejects is a schema error (wrong type, unknown field, bad enum)', async () => {
    const objects = prod();
    const topic = find(objects, 'KafkaTopic', 'links.clicks') as unknown as { spec: Record<string, unknown> };
    topic.spec['partitions'] = 'twelve';
    expect(await schemaErrors(topic as unknown as Manifest)).toEqual([
      expect.stringMatching(/KafkaTopic\/links.clicks: \/spec\/partitions must be integer/),
    ]);
    const scaled = find(objects, 'ScaledObject', 'notifier') as unknown as { spec: Record<string, unknown> };
    scaled.spec['maxReplicas'] = 12;
    expect(await schemaErrors(scaled as unknown as Manifest)).toEqual([
      `ScaledObject/notifier: /spec unknown field 'maxReplicas'`,
    ]);
    const pool = find(objects, 'KafkaNodePool', 'dual-role') as unknown as { spec: { roles: string[] } };
    pool.spec.roles = ['broker', 'zookeeper'];
    expect((await schemaErrors(pool as unknown as Manifest)).join('\n')).toMatch(
      /roles\/1 must be equal to one of the allowed values/,
    );
    expect(await schemaErrors({ ...find(objects, 'Kafka', 'kafka'), apiVersion: 'kafka.strimzi.io/v1beta1' })).toEqual([
      expect.stringMatching(/no CustomResourceDefinition for kafka.strimzi.io\/v1beta1 Kafka/),
    ]);
  });

  it('a ScaledObject above its partitions, on another group, or an Ingress that cuts uploads short are caught', () => {
    const objects = prod();
    const so = find(objects, 'ScaledObject', 'webhook-dispatcher') as unknown as ScaledObject;
    so.spec.maxReplicaCount = 6;
    const trigger = so.spec.triggers[0]?.metadata;
    if (trigger) trigger['consumerGroup'] = 'webhooks';
    expect(appExpectationViolations(objects, { dir: 'k8s/overlays/prod', logLevel: 'info' })).toEqual([
      'Deployment/webhook-dispatcher: a KEDA ScaledObject on consumer lag must scale 2..4',
      'ScaledObject/webhook-dispatcher: must scale on the lag of consumer group webhook-dispatcher on webhooks.deliveries (a kafka trigger)',
    ]);
    const ingress = find(objects, 'Ingress', 'images') as unknown as Ingress;
    ingress.metadata.annotations = {
      ...ingress.metadata.annotations,
      [`${NGINX}proxy-body-size`]: '8m',
      [`${NGINX}proxy-read-timeout`]: '60',
    };
    expect(ingressViolations(objects)).toEqual([
      'Ingress/images: proxy-body-size must allow UPLOAD_LIMIT_BYTES (33554432)',
      'Ingress/images: proxy-read-timeout must exceed COMMAND_TIMEOUT_MS (90 s)',
    ]);
  });

  it('a policy that opens private ranges, the internet to a worker, or drops the default deny is a network violation', () => {
    let objects = prod();
    const internet = find(objects, 'NetworkPolicy', 'internet-egress') as unknown as INetworkPolicy;
    const block = internet.spec?.egress?.[0]?.to?.[0]?.ipBlock;
    if (block) block.except = [];
    expect(networkViolations(objects, ENVIRONMENTS[2] as Environment)).toEqual(
      expect.arrayContaining([
        'image-worker: 10.0.0.10 (private) must be denied',
        'webhook-dispatcher: 169.254.169.254 (private) must be denied',
      ]),
    );
    objects = prod();
    const values = (find(objects, 'NetworkPolicy', 'internet-egress') as unknown as INetworkPolicy).spec?.podSelector
      .matchExpressions?.[0]?.values;
    values?.push('links-worker');
    expect(networkViolations(objects, ENVIRONMENTS[2] as Environment)).toEqual([
      'links-worker: the internet on 443 must be denied',
    ]);
    objects = prod();
    objects.splice(objects.indexOf(find(objects, 'NetworkPolicy', 'default-deny')), 1);
    // (the other policies still isolate every pod they select; the check asks for the explicit default)
    expect(networkViolations(objects, ENVIRONMENTS[2] as Environment)).toEqual([
      'no default-deny NetworkPolicy (all pods, Ingress and Egress, no rules)',
    ]);
  });
});
