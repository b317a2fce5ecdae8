import type { ImageType } from './media-types.js';
import type { RenderedResult } from './output-store.js';

/** The worker's reply to CompressImage, rendered by the gateway as the /shrink response. */
export interface CompressedReply {
  input: { size: number; type: ImageType };
  output: { size: number; type: ImageType; width: number; height: number };
  compression_count: number;
}

/** The worker's reply to RenderOutput; the image itself waits in the output store under the result key. */
export interface RenderedReply extends RenderedResult {
  compression_count: number;
  /** The stored object's address, for a store request. */
  location: string | null;
}

declare module '@platform/contracts' {
  interface CommandReplies {
    'platform.images.commands.CompressImage': CompressedReply;
    'platform.images.commands.RenderOutput': RenderedReply;
    'platform.images.commands.RenderOutputV2': RenderedReply;
  }
}
