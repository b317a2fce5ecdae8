/** The four types the service accepts and produces; `image/avif` is the AVIF media type (RFC-registered). */
export const IMAGE_TYPES = ['image/avif', 'image/webp', 'image/jpeg', 'image/png'] as const;
export type ImageType = (typeof IMAGE_TYPES)[number];

export function isImageType(value: string): value is ImageType {
  return (IMAGE_TYPES as readonly string[]).includes(value);
}

/** Types whose encoders keep an alpha channel. */
export function supportsAlpha(type: ImageType): boolean {
  return type !== 'image/jpeg';
}
