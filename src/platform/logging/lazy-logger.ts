import type { FastifyBaseLogger } from 'fastify';
import type { Bindings, ChildLoggerOptions } from 'pino';

/**
 * A request's child logger, made only when the request first logs. Fastify builds one per
 * request, and a pino child with redaction serialises its bindings at once: work wasted on
 * every request that never logs, `me` above all.
 */
class LazyChildLogger {
  private made: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly opts: ChildLoggerOptions,
  ) {}

  private get real(): FastifyBaseLogger {
    this.made ??= this.parent.child(
      this.bindings,
      this.opts,
    ) as FastifyBaseLogger;
    return this.made;
  }

  get level(): string {
    return this.made?.level ?? this.opts.level ?? this.parent.level;
  }

  set level(level: string) {
    this.real.level = level;
  }

  fatal(...args: unknown[]) {
    (this.real.fatal as (...a: unknown[]) => void)(...args);
  }
  error(...args: unknown[]) {
    (this.real.error as (...a: unknown[]) => void)(...args);
  }
  warn(...args: unknown[]) {
    (this.real.warn as (...a: unknown[]) => void)(...args);
  }
  info(...args: unknown[]) {
    (this.real.info as (...a: unknown[]) => void)(...args);
  }
  debug(...args: unknown[]) {
    (this.real.debug as (...a: unknown[]) => void)(...args);
  }
  trace(...args: unknown[]) {
    (this.real.trace as (...a: unknown[]) => void)(...args);
  }
  silent(...args: unknown[]) {
    (this.real.silent as (...a: unknown[]) => void)(...args);
  }
  child(bindings: Bindings, opts?: ChildLoggerOptions): FastifyBaseLogger {
    return this.real.child(bindings, opts);
  }
}

/**
 * Fastify's `childLoggerFactory`: each request gets a LazyChildLogger of `logger`, the
 * service's own, whatever logger Fastify holds (it holds none: see app/http.ts).
 */
export function lazyChildLoggerFactoryOf(logger: FastifyBaseLogger) {
  return (
    _fastifyLogger: FastifyBaseLogger,
    bindings: Bindings,
    opts: ChildLoggerOptions,
  ): FastifyBaseLogger =>
    new LazyChildLogger(logger, bindings, opts) as unknown as FastifyBaseLogger;
}
