import type { Auth } from './auth.js';
import type { WebDeps } from './deps.js';

/** What every route module gets: the injected dependencies and the session helpers built on them. */
export interface WebContext {
  deps: WebDeps;
  auth: Auth;
}
