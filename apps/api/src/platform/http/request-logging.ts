import {
  LogController,
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';

/**
 * What logging costs a request: one line as it completes (at `info`), and a request logger that is
 * built only if something is written through it.
 *
 * Fastify's own request logging writes two lines a request ("incoming request", "request completed")
 * through a child logger it builds for every request; building a pino child serializes its bindings
 * and runs the redaction over them, about a thirtieth of a request's CPU on a short read even when
 * the level writes nothing. The server's log controller writes one line instead, and its request
 * loggers are made by `lazyChildLogger`.
 */

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';
const LEVELS: readonly Level[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace'];

type Bindings = Record<string, unknown>;
type LogFn = (...args: unknown[]) => void;

interface LevelAware {
  isLevelEnabled?: (level: string) => boolean;
}

/**
 * A child logger whose pino child is made the first time a line at an enabled level is written (or
 * its level, bindings or own children are asked for); until then it costs one small object.
 */
class LazyChildLogger {
  #real: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindingsOfChild: Bindings,
  ) {}

  real(): FastifyBaseLogger {
    return (this.#real ??= this.parent.child(this.bindingsOfChild));
  }

  get level(): string {
    return this.#real?.level ?? this.parent.level;
  }

  set level(level: string) {
    this.real().level = level;
  }

  isLevelEnabled(level: string): boolean {
    const logger = (this.#real ?? this.parent) as LevelAware;
    return logger.isLevelEnabled ? logger.isLevelEnabled(level) : true;
  }

  bindings(): Bindings {
    return (this.real() as unknown as { bindings(): Bindings }).bindings();
  }

  child(bindings: Bindings, options?: object): FastifyBaseLogger {
    return this.real().child(bindings, options);
  }

  silent(): void {}
}

for (const level of LEVELS) {
  Object.defineProperty(LazyChildLogger.prototype, level, {
    value: function (this: LazyChildLogger, ...args: unknown[]) {
      if (!this.isLevelEnabled(level)) return;
      (this.real()[level] as LogFn)(...args);
    },
    writable: true,
    configurable: true,
  });
}

/**
 * Fastify's `childLoggerFactory`: a lazy child for a request's own bindings (its id); a route's own
 * logger options (a level of its own, a serializer) get a real child at once.
 */
export function lazyChildLogger(
  this: FastifyInstance,
  logger: FastifyBaseLogger,
  bindings: Bindings,
  options: object,
): FastifyBaseLogger {
  if (Object.keys(options).length > 0) return logger.child(bindings, options);
  return new LazyChildLogger(logger, bindings) as unknown as FastifyBaseLogger;
}

/**
 * Fastify's request-lifecycle lines, one a request: nothing as a request arrives, and as it completes
 * its method, redacted URL (the request serializer, platform/logging.ts), status and duration. The
 * other lines (a failed response, a stream error, a route not found) stay Fastify's own.
 */
class OneLineLogController extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (error) return super.requestCompleted(error, request, reply);
    const log = request.log as FastifyBaseLogger & LevelAware;
    if (log.isLevelEnabled && !log.isLevelEnabled('info')) return;
    log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
}

/** The server options of request logging (a new controller for every server). */
export function requestLoggingOptions() {
  return { logController: new OneLineLogController(), childLoggerFactory: lazyChildLogger };
}
