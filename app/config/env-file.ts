import { existsSync } from 'node:fs';

/**
 * Reads `.env` from the working directory when there is one; a variable already set in the
 * environment wins over the file. Without the file it does nothing, quietly: Node's own
 * `--env-file-if-exists` printed ".env not found. Continuing without it." on every start.
 */
export function loadEnvFile(path = '.env'): void {
  if (existsSync(path)) process.loadEnvFile(path);
}
