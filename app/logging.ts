import { pino, type Logger } from 'pino';
import pretty from 'pino-pretty';
import type { AppConfig } from './config/config';

/**
 * JSON logs on stdout. Redaction is a second line of defence: code never logs credentials,
 * but any field that looks like one is censored anyway.
 */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'tenantkit' },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: {
        paths: [
          'password', '*.password', 'new_password', '*.new_password', 'current_password', '*.current_password',
          'token', '*.token', 'cookie', '*.cookie', 'authorization', '*.authorization', 'headers.cookie',
          'headers.authorization', 'secret', '*.secret', 'apiKey', '*.apiKey',
        ],
        censor: '[redacted]',
      },
    },
    destination,
  );
}

/**
 * The process logger of `npm start` and `npm run worker`. JSON lines unless `APP_LOG_FORMAT` says
 * `pretty`, or says `auto` (the default) in `dev` with a terminal on stdout: then pino-pretty
 * writes a readable entry, its fields one per line (a stub email's link can be copied from it).
 * Pretty printing runs in-process and synchronously: it is for development.
 */
export function createAppLogger(
  config: Pick<AppConfig, 'logLevel' | 'logFormat' | 'environment'>,
  output: { isTty?: boolean; stream?: NodeJS.WritableStream } = {},
): Logger {
  const isTty = output.isTty ?? process.stdout.isTTY === true;
  const wantsPretty = config.logFormat === 'pretty' || (config.logFormat === 'auto' && config.environment === 'dev' && isTty);
  if (!wantsPretty) return createLogger(config.logLevel, output.stream as pino.DestinationStream | undefined);
  return createLogger(
    config.logLevel,
    pretty({ colorize: isTty, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname,service', ...(output.stream ? { destination: output.stream } : {}) }),
  );
}
