import type { LinksRoute } from '../../deps.js';
import { qrCodeRoutes as legacy } from '../qr-codes.routes.js';

/** QR codes: create, edit, list, delete, images, logos, static codes. */
export const qrCodeRoutes: LinksRoute[] = [legacy];
