import type { LinksRoute } from '../../deps.js';
import { createQrCodeRoute } from './create-qr-code.route.js';
import { createStaticQrCodeRoute } from './create-static-qr-code.route.js';
import { deleteQrCodeRoute } from './delete-qr-code.route.js';
import { getQrCodeImageRoute } from './get-qr-code-image.route.js';
import { getQrCodeRoute } from './get-qr-code.route.js';
import { listGroupQrCodesRoute } from './list-group-qr-codes.route.js';
import { updateQrCodeRoute } from './update-qr-code.route.js';
import { uploadQrCodeLogoRoute } from './upload-qr-code-logo.route.js';

/** QR codes: create, edit, list, delete, images, logos, static codes. */
export const qrCodeRoutes: LinksRoute[] = [
  createQrCodeRoute,
  getQrCodeRoute,
  updateQrCodeRoute,
  deleteQrCodeRoute,
  getQrCodeImageRoute,
  createStaticQrCodeRoute,
  listGroupQrCodesRoute,
  uploadQrCodeLogoRoute,
];
