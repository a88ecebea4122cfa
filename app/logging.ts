import { pino, type Logger } from 'pino';

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
