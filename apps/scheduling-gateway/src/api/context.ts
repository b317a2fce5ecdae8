import type { CommandReplies, CommandType } from '@platform/contracts';
import type { UserDirectory } from '@platform/identity';
import type { CommandBus, CommandValue } from '@platform/kafka';
import { lookupUsers, readsFor, type SchedulingStore, type UserLookup, type UserReads } from '@platform/scheduling';

export interface ApiDeps {
  scheduling: SchedulingStore;
  users: UserDirectory;
  commands: CommandBus;
}

export interface ApiRequest {
  params: Record<string, string>;
  query: Record<string, unknown>;
  body: unknown;
  /** Throws the API's validation error unless the body matches the route's schema (run before any command). */
  checkBody(): void;
  /** The authorizing user of the access token (absent on public endpoints). */
  userId: string | undefined;
}

export interface ApiContext extends ApiRequest {
  deps: ApiDeps;
  /** The scheduling data as the authorizing user may see it (public endpoints read nothing). */
  reads: UserReads;
  id(param: string): number;
  users(ids: Iterable<string>): Promise<UserLookup>;
  /** Sends a command once its body passes the route's schema; resolves with the reply declared beside it. */
  command<T extends CommandType>(type: T, key: string, value: CommandValue<T>): Promise<CommandReplies[T]>;
}

export function createContext(deps: ApiDeps, request: ApiRequest): ApiContext {
  return {
    ...request,
    // A handler reads the body only once the route's schema passed it (who may act was decided before).
    get body() {
      request.checkBody();
      return request.body;
    },
    deps,
    reads: readsFor(deps.scheduling, request.userId ?? ''),
    // The route's params schema has passed it as a positive integer (NUMERIC_PARAM in register.ts).
    id: (param) => Number(request.params[param]),
    users: (ids) => lookupUsers((id) => deps.users.get(id), ids),
    command(type, key, value) {
      request.checkBody();
      return deps.commands.send(type, key, value);
    },
  };
}
