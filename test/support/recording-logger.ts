import type { Logger } from '../../core/shared/logger.port';

export interface LogLine {
  level: keyof Logger;
  fields: Record<string, unknown>;
  message: string;
}

/** A core Logger that records every call, in order, into `lines` (a fresh array unless given). */
export function recordingLogger(lines: LogLine[] = []): Logger & { lines: LogLine[] } {
  const at = (level: keyof Logger) => (fields: Record<string, unknown>, message: string) => void lines.push({ level, fields, message });
  return { lines, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}
