import type { MessageType } from './generated/types.js';

/**
 * The reply each command is answered with, keyed by the command's record type. The domain lib that owns a
 * command declares its reply beside it by merging into this interface:
 *
 *   declare module '@platform/contracts' {
 *     interface CommandReplies { 'platform.usermgmt.commands.CreateUser': UserObject }
 *   }
 *
 * The command bus's `send` returns `CommandReplies[T]`, and a worker's handler map must return it, so the two
 * ends cannot drift apart; a record without a declared reply cannot be sent as a command at all.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled in by declaration merging
export interface CommandReplies {}

/** The record types that are commands with a reply. */
export type CommandType = Extract<keyof CommandReplies, MessageType>;

export type ReplyOf<T extends CommandType> = CommandReplies[T];
