/**
 * Structured logging for core use cases. `fields` is merged into the log line; never put
 * passwords, tokens or cookies in it.
 */
export interface Logger {
  debug(fields: Record<string, unknown>, message: string): void;
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
  error(fields: Record<string, unknown>, message: string): void;
}
