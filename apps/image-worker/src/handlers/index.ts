import type { MessageTypeNames } from '@platform/contracts';
import type { IncomingMessage } from '@platform/kafka';
import { compressImageHandler } from './compress-image.handler.js';
import type { HandlerDeps } from './deps.js';
import { renderOutputHandler } from './render-output.handler.js';

type N = typeof MessageTypeNames;
export type ImageCommand = N['CompressImage'] | N['RenderOutput'];

/** Every image command has exactly one handler: a missing entry is a type error. */
export const commandHandlers: {
  [T in ImageCommand]: (deps: HandlerDeps, message: IncomingMessage<T>) => Promise<unknown>;
} = {
  'platform.images.commands.CompressImage': compressImageHandler,
  'platform.images.commands.RenderOutput': renderOutputHandler,
};

export type { HandlerDeps } from './deps.js';
