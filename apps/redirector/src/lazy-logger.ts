import type { FastifyBaseLogger } from 'fastify';

type LogArgs = Parameters<FastifyBaseLogger['info']>;
type Bindings = Parameters<FastifyBaseLogger['child']>[0];
type ChildLoggerOptions = NonNullable<Parameters<FastifyBaseLogger['child']>[1]>;

/**
 * A request's logger that becomes pino's child (request id bound, redaction set up: a few microseconds) only
 * when something logs through it. The redirect route logs nothing when it succeeds (ADR 0017), so most
 * requests never make one; a failure is logged with the request id as on every other route.
 */
class LazyChildLogger {
  #made: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  private get made(): FastifyBaseLogger {
    return (this.#made ??= this.parent.child(this.bindings, this.options));
  }

  get level(): string {
    return this.#made?.level ?? this.options.level ?? this.parent.level;
  }
  set level(level: string) {
    this.made.level = level;
  }
  fatal(...args: LogArgs) {
    this.made.fatal(...args);
  }
  error(...args: LogArgs) {
    this.made.error(...args);
  }
  warn(...args: LogArgs) {
    this.made.warn(...args);
  }
  info(...args: LogArgs) {
    this.made.info(...args);
  }
  debug(...args: LogArgs) {
    this.made.debug(...args);
  }
  trace(...args: LogArgs) {
    this.made.trace(...args);
  }
  silent(...args: LogArgs) {
    this.made.silent(...args);
  }
  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.made.child(bindings, options);
  }
}

/** A route's `childLoggerFactory`: request.log made on first use. */
export const lazyChildLogger = (
  parent: FastifyBaseLogger,
  bindings: Bindings,
  options: ChildLoggerOptions,
): FastifyBaseLogger => new LazyChildLogger(parent, bindings, options) as unknown as FastifyBaseLogger;
