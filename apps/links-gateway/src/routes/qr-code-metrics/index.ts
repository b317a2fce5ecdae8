import type { LinksRoute } from '../../deps.js';
import { getQrCodeScansBrowsersRoute } from './get-qr-code-scans-browsers.route.js';
import { getQrCodeScansCitiesRoute } from './get-qr-code-scans-cities.route.js';
import { getQrCodeScansCountriesRoute } from './get-qr-code-scans-countries.route.js';
import { getQrCodeScansDeviceOsRoute } from './get-qr-code-scans-device-os.route.js';
import { getQrCodeScansSummaryRoute } from './get-qr-code-scans-summary.route.js';
import { getQrCodeScansRoute } from './get-qr-code-scans.route.js';

/** Scan metrics of a QR code. */
export const qrCodeMetricRoutes: LinksRoute[] = [
  getQrCodeScansRoute,
  getQrCodeScansSummaryRoute,
  getQrCodeScansCountriesRoute,
  getQrCodeScansCitiesRoute,
  getQrCodeScansDeviceOsRoute,
  getQrCodeScansBrowsersRoute,
];
