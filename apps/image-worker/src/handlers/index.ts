import type { MessageTypeNames } from '@platform/contracts';
import type { CommandHandlerMap } from '@platform/kafka';
import { compressImageHandler } from './compress-image.handler.js';
import type { HandlerDeps } from './deps.js';
import { renderOutputHandler, renderOutputV2Handler } from './render-output.handler.js';

type N = typeof MessageTypeNames;
export type ImageCommand = N['CompressImage'] | N['RenderOutputV2'] | N['RenderOutput'];

/** Every image command has exactly one handler: a missing entry is a type error. */
export const commandHandlers: CommandHandlerMap<ImageCommand, HandlerDeps> = {
  'platform.images.commands.CompressImage': compressImageHandler,
  'platform.images.commands.RenderOutputV2': renderOutputV2Handler,
  'platform.images.commands.RenderOutput': renderOutputHandler,
};

export type { HandlerDeps } from './deps.js';
