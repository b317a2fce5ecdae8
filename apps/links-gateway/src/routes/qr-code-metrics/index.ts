import type { LinksRoute } from '../../deps.js';

/** Scan metrics of a QR code. */
export const qrCodeMetricRoutes: LinksRoute[] = [];
