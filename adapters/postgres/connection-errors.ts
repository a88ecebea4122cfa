/**
 * True when `error` means "PostgreSQL cannot be reached right now" (as opposed to a bad query):
 * refused/reset connections, pool acquire time-outs, and the SQLSTATE classes for connection
 * exceptions (08), operator intervention (57P0x) and resource limits (53300).
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false;
  const { code, name, message } = error as { code?: unknown; name?: unknown; message?: unknown };
  if (name === 'ConnectionException') return true;
  if (typeof code === 'string') {
    if (['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EPIPE', 'ENOENT', 'EHOSTUNREACH'].includes(code)) return true;
    if (code.startsWith('08') || /^57P0[1-3]$/.test(code) || code === '53300') return true;
  }
  // pg's own words: a dropped connection, the pool or connect wait running out ('timeout expired'
  // is the connect time-out), and the client-side query time-out of a server that never answers.
  if (typeof message === 'string' && /Connection terminated|Timeout acquiring a connection|timeout exceeded when trying to connect|^timeout expired$|Query read timeout|Client has encountered a connection error|Client was closed and is not queryable/i.test(message)) {
    return true;
  }
  const cause = (error as { cause?: unknown }).cause;
  return cause !== undefined && cause !== error && isDatabaseUnavailable(cause);
}
