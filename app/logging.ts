import { pino, type Logger } from 'pino';
import { prettyFactory } from 'pino-pretty';
import type { AppConfig } from './config/config';
import { BatchedLogDestination } from './log-destination';

/** Field names whose values never reach the log, at the top level of an entry or one level down. */
const SECRET_KEYS: ReadonlySet<string> = new Set([
  'password', 'new_password', 'current_password', 'token', 'cookie', 'authorization', 'secret', 'apiKey',
]);
const CENSOR = '[redacted]';

const isPlainRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A copy with the same prototype and every own property; an Error keeps its stack, which V8 holds outside its properties. */
function copyOf(value: Record<string, unknown>): Record<string, unknown> {
  const copy = Object.create(Object.getPrototypeOf(value) as object | null, Object.getOwnPropertyDescriptors(value)) as Record<string, unknown>;
  if (value instanceof Error) Object.defineProperty(copy, 'stack', { value: value.stack, writable: true, configurable: true });
  return copy;
}

const censored = () => CENSOR;
/** Top-level secret fields of log entries and of child loggers' bindings (which no formatter sees). */
const SECRET_SERIALIZERS = Object.fromEntries([...SECRET_KEYS].map((key) => [key, censored]));

/** `entry` with every secret-named field, at its top level or in an object one level down, censored; copied only when one is found. */
export function redactSecrets(entry: Record<string, unknown>): Record<string, unknown> {
  let out = entry;
  for (const key in entry) {
    const value = entry[key];
    let replaced: unknown = value;
    if (SECRET_KEYS.has(key)) replaced = CENSOR;
    else if (isPlainRecord(value)) {
      for (const inner in value) {
        if (!SECRET_KEYS.has(inner)) continue;
        if (replaced === value) replaced = copyOf(value);
        (replaced as Record<string, unknown>)[inner] = CENSOR;
      }
    }
    if (replaced === value) continue;
    if (out === entry) out = { ...entry };
    out[key] = replaced;
  }
  return out;
}

/** `'000Z"'` … `'999Z"'`: the end of the time field for each millisecond of a second. */
const MILLISECONDS = Array.from({ length: 1000 }, (_, ms) => `${String(ms).padStart(3, '0')}Z"`);
let second = Number.NaN;
let secondPrefix = '';
/**
 * The line's time field as pino's `stdTimeFunctions.isoTime` writes it (`,"time":"<ISO 8601>"`),
 * with the date and time up to the second made once a second: `new Date(now).toISOString()` for
 * every line cost several thousand instructions (docs/benchmarks.md); now a line joins two strings.
 * (Not app/http/iso-time.ts, which formats a given Date and caches by day.)
 */
function timeField(): string {
  const now = Date.now();
  const ms = now % 1000;
  if (now - ms !== second) {
    second = now - ms;
    secondPrefix = `,"time":"${new Date(second).toISOString().slice(0, -4)}`;
  }
  return secondPrefix + MILLISECONDS[ms]!;
}

/**
 * JSON logs. Redaction is a second line of defence: code never logs credentials, but a field
 * named like one (`password`, `token`, `cookie`, `authorization`, `secret`, `apiKey`…) is
 * censored anyway, at the top level of an entry or in an object one level down (`headers.cookie`).
 * Done by a formatter that looks at the entry's keys (and serializers for a child logger's
 * bindings, top level only), not by pino's `redact`: with paths of the form `*.password`, pino
 * runs a copying redactor on every field of every line, which makes an access-log line cost
 * several times what it costs without (docs/benchmarks.md).
 */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'tenantkit' },
      timestamp: timeField,
      formatters: { log: redactSecrets },
      serializers: { err: pino.stdSerializers.err, ...SECRET_SERIALIZERS },
    },
    destination,
  );
}

// pino's own names for its logger's parts (`msgPrefixSym` is missing from its types).
const { lsCacheSym, chindingsSym, timeSym, streamSym, endSym, messageKeySym, mixinSym, hooksSym, msgPrefixSym, nestedKeySym, needsMetadataGsym } = pino.symbols as typeof pino.symbols & { msgPrefixSym: symbol };
const INFO = 30;

/**
 * Writes lines at `info` exactly as `logger.info(fields, msg)` would, from fields already written
 * as JSON members (`,"key":value` each): pino's own start of the line (level, time, the logger's
 * bindings), the members, the message, pino's end, to the logger's destination. For a line of
 * fixed shape written for every request (the access line): pino's generic path looks each key up
 * in its serializers and stringifiers, runs the redaction formatter, escapes every key and value
 * and joins some thirty strings, about half of what a line costs in all (docs/benchmarks.md).
 *
 * The caller answers for its members: valid JSON, and none named like a secret (no formatter sees
 * them). The logger must be a plain one (as `createLogger` makes): with a mixin, a message prefix,
 * a nested key, a `streamWrite` hook or a destination that wants each line's metadata (pino-pretty,
 * a multistream), pino's line would differ: for those it returns `undefined`, and the caller
 * writes through `logger.info` instead. The caller checks the level (`logger.isLevelEnabled('info')`).
 */
export function infoLineWriter(logger: Logger, msg: string): ((members: string) => void) | undefined {
  const internals = logger as unknown as Record<symbol, unknown>;
  const stream = internals[streamSym] as Record<symbol, unknown> | undefined;
  const hooks = internals[hooksSym] as { streamWrite?: unknown } | undefined;
  if (internals[mixinSym] || internals[msgPrefixSym] !== undefined || internals[nestedKeySym] || hooks?.streamWrite || stream?.[needsMetadataGsym]) {
    return undefined;
  }
  const tail = `,${JSON.stringify(internals[messageKeySym])}:${JSON.stringify(msg)}${internals[endSym] as string}`;
  return (members) => {
    const line = (internals[lsCacheSym] as Record<number, string>)[INFO]! + (internals[timeSym] as () => string)() + (internals[chindingsSym] as string) + members + tail;
    (internals[streamSym] as { write(line: string): unknown }).write(line);
  };
}

/**
 * The process logger of `npm start` and `npm run worker`. JSON lines unless `APP_LOG_FORMAT` says
 * `pretty`, or says `auto` (the default) in `dev` with a terminal on stdout: then pino-pretty's
 * formatter writes a readable entry, its fields one per line (a stub email's link can be copied
 * from it). Pretty printing runs in-process and synchronously: it is for development.
 *
 * JSON lines go to stdout through `BatchedLogDestination`: lines are written together, at most
 * `FLUSH_AFTER_MS` after the first of them, so a request does not pay a `write` system call per
 * log line. What is still pending when the process exits is written out synchronously on exit
 * (`flushLogs`).
 */
export function createAppLogger(
  config: Pick<AppConfig, 'logLevel' | 'logFormat' | 'environment'>,
  output: { isTty?: boolean; stream?: NodeJS.WritableStream } = {},
): Logger {
  const isTty = output.isTty ?? process.stdout.isTTY === true;
  const wantsPretty = config.logFormat === 'pretty' || (config.logFormat === 'auto' && config.environment === 'dev' && isTty);
  if (!wantsPretty) {
    return createLogger(config.logLevel, (output.stream as pino.DestinationStream | undefined) ?? jsonLinesDestination(1));
  }
  const prettify = prettyFactory({ colorize: isTty, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname,service' });
  return createLogger(config.logLevel, new PrettyDestination(prettify, output.stream ?? new BatchedLogDestination(1)));
}

/**
 * pino-pretty's formatter as a destination of its own, formatting each line as it is written.
 * Not pino-pretty's stream: that one passes lines through a pipeline of streams to an
 * asynchronous writer, and the last lines before `process.exit` (`stopped` after Ctrl-C) were
 * lost now and then. Here a line is formatted at once and goes where JSON lines go (written
 * within milliseconds, and by `flushSync` on exit), or to the given stream (tests).
 */
class PrettyDestination {
  constructor(
    private readonly prettify: (line: string) => string,
    private readonly out: { write(text: string): unknown; flushSync?: () => void },
  ) {}

  write(line: string): boolean {
    this.out.write(this.prettify(line));
    return true;
  }

  flushSync(): void {
    this.out.flushSync?.();
  }
}

/** Where `npm start` and the worker write JSON lines: file descriptor `fd` (stdout in production). */
export function jsonLinesDestination(fd: number): pino.DestinationStream {
  return new BatchedLogDestination(fd);
}

/** Writes out, synchronously, whatever the logger's destination still buffers: call it before `process.exit`. */
export function flushLogs(logger: Logger): void {
  const stream = (logger as unknown as Record<symbol, unknown>)[pino.symbols.streamSym] as { flushSync?: () => void } | undefined;
  try {
    stream?.flushSync?.();
  } catch {
    // A destination that cannot flush now (closed, or not open yet) has nothing we could still save.
  }
}
