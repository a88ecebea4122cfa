import { writeSync } from 'node:fs';

/** A turn's lines are written at once before they reach this size, so a burst holds little memory. */
const MAX_PENDING_CHARS = 64 * 1024;
const RETRY_WAIT_MS = 5;
const waitCell = new Int32Array(new SharedArrayBuffer(4));

/**
 * JSON log lines to a file descriptor, one `write` system call per turn of the event loop: the
 * lines a turn logs (under load, the access lines of every request that turn completed) are
 * joined and written when the turn ends (`setImmediate`), synchronously, so a line lives only
 * until then. Cheaper per line than sonic-boom, sync or not: no `write` per line, and no text
 * held while a write runs on the libuv pool (long enough for a scavenge to promote it, for a
 * major GC to collect), no re-encoding of what was written (docs/benchmarks.md).
 *
 * Nothing is lost: a write the descriptor takes in part is finished; a non-blocking pipe that is
 * full (EAGAIN) is waited for, blocking the process as a synchronous logger does; `flushSync`
 * writes what is pending (on exit). A reader that has gone away (EPIPE) ends logging, as pino's
 * own destination does; any other write error is thrown.
 */
export class TurnBatchedDestination {
  #pending = '';
  #broken = false;

  constructor(private readonly fd: number) {}

  write(line: string): boolean {
    if (this.#broken) return true;
    if (this.#pending.length === 0) setImmediate(this.#endOfTurn);
    this.#pending += line;
    if (this.#pending.length >= MAX_PENDING_CHARS) this.flushSync();
    return true;
  }

  /** Writes whatever is pending, before returning. */
  flushSync(): void {
    const text = this.#pending;
    if (text.length === 0) return;
    this.#pending = '';
    if (!this.#broken) this.#writeAll(text);
  }

  /** What pino's `logger.flush(cb)` calls. */
  flush(done?: (error?: Error) => void): void {
    try {
      this.flushSync();
    } catch (error) {
      done?.(error as Error);
      return;
    }
    done?.();
  }

  readonly #endOfTurn = (): void => this.flushSync();

  #writeAll(text: string): void {
    let rest: Buffer | undefined;
    for (;;) {
      try {
        if (rest === undefined) {
          const written = writeSync(this.fd, text);
          const length = Buffer.byteLength(text);
          if (written === length) return;
          rest = Buffer.from(text).subarray(written);
        } else {
          rest = rest.subarray(writeSync(this.fd, rest));
          if (rest.length === 0) return;
        }
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'EPIPE') {
          this.#broken = true;
          return;
        }
        if (code !== 'EAGAIN' && code !== 'EBUSY') throw error;
        Atomics.wait(waitCell, 0, 0, RETRY_WAIT_MS);
      }
    }
  }
}
