import type { HttpApp, Idempotency } from '@platform/http';
import type { Accounts, Members } from '@platform/accounts';
import type { Reports } from '@platform/analytics';
import type { CommandBus } from '@platform/kafka';
import type { LinksStore } from '@platform/links';
import type { Sealer } from '@platform/secrets';
import type { PlatformLimits } from './platform-limits.js';
import type { QrImages } from './qr-images.js';

export interface GatewayDeps {
  accounts: Accounts;
  members: Members;
  store: LinksStore;
  /** The metrics operations' reads of the aggregate buckets (written by the analytics aggregator). */
  analytics: Reports;
  commands: CommandBus;
  /** `Idempotency-Key` on the creating POSTs, per user. */
  idempotency: Idempotency;
  /** Seals secrets a request brings (a webhook's OAuth client secret) before they go anywhere. */
  sealer: Sealer;
  publicBaseUrl: string;
  defaultDomain: string;
  scheme: 'http' | 'https';
}

/** What a route is built with: the gateway's dependencies and the app's own helpers. */
export interface RouteDeps extends GatewayDeps {
  platformLimits: PlatformLimits;
  qrImages: QrImages;
}

/** One route (or one alias pair) of the API, registered by app.ts from its resource's list. */
export type LinksRoute = (app: HttpApp, deps: RouteDeps) => void;
