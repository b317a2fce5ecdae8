import jsQRModule from 'jsqr';
import sharp from 'sharp';

// jsqr is CommonJS with ES module typings: its function is both the module and its `default`.
const jsQR = jsQRModule.default;

/**
 * What a QR image (PNG, or anything sharp reads) encodes, read by an independent QR reader (jsQR) from its
 * pixels; null when it does not scan. Transparent pixels are laid on white, as a screen or paper shows them.
 */
export async function decodeQr(image: Buffer): Promise<string | null> {
  const { data, info } = await sharp(image)
    .flatten({ background: '#ffffff' })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const found = jsQR(new Uint8ClampedArray(data.buffer, data.byteOffset, data.length), info.width, info.height, {
    inversionAttempts: 'attemptBoth',
  });
  return found?.data ?? null;
}
