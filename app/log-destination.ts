import { writeSync } from 'node:fs';

/** The buffer's size: lines are written together before they would overflow it. */
const CAPACITY = 64 * 1024;
/** How long a line waits, at most, for others to join it before they are written. */
export const FLUSH_AFTER_MS = 10;
const RETRY_WAIT_MS = 5;
const waitCell = new Int32Array(new SharedArrayBuffer(4));

/**
 * JSON log lines to a file descriptor, written together: each line is encoded at once into one
 * buffer kept for the life of the process, and the buffer is written, synchronously, when the next
 * line would not fit or `FLUSH_AFTER_MS` after the first line it holds. Under load that is one
 * `write` system call for dozens of access lines, where one per turn of the event loop was one
 * for every three or four, and a system call to a log file costs more than building the line
 * (docs/benchmarks.md). No text is kept: a line's string dies as soon as it is encoded, so nothing
 * a scavenge would have to promote waits for the write, and nothing is written on the libuv pool.
 *
 * Nothing is lost while the process lives: a write the descriptor takes in part is finished; a
 * non-blocking pipe that is full (EAGAIN) is waited for, blocking the process as a synchronous
 * logger does; `flushSync` writes what is pending (the process's `exit` handler calls it, so a
 * crash or `process.exit` loses nothing; only a process killed outright loses its last few
 * milliseconds of lines). A reader that has gone away (EPIPE) ends logging, as pino's own
 * destination does; any other write error is thrown.
 */
export class BatchedLogDestination {
  readonly #buffer = Buffer.allocUnsafeSlow(CAPACITY);
  #length = 0;
  #timer: NodeJS.Timeout | undefined;
  #broken = false;

  constructor(private readonly fd: number) {}

  write(line: string): boolean {
    if (this.#broken) return true;
    // A UTF-16 unit never takes more than 3 bytes in UTF-8: most lines fit without measuring.
    if (line.length * 3 > CAPACITY - this.#length) {
      const bytes = Buffer.byteLength(line);
      if (bytes > CAPACITY - this.#length) this.flushSync();
      if (bytes > CAPACITY) {
        this.#writeAll(Buffer.from(line));
        return true;
      }
    }
    this.#length += this.#buffer.write(line, this.#length);
    if (this.#timer === undefined) {
      this.#timer = setTimeout(this.#onTimer, FLUSH_AFTER_MS);
      // Lines waiting are no reason to stay alive: an exiting process flushes them (`flushSync`).
      this.#timer.unref();
    }
    return true;
  }

  /** Writes whatever is pending, before returning. */
  flushSync(): void {
    if (this.#timer !== undefined) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
    }
    const length = this.#length;
    if (length === 0) return;
    this.#length = 0;
    if (!this.#broken) this.#writeAll(this.#buffer.subarray(0, length));
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

  readonly #onTimer = (): void => {
    this.#timer = undefined;
    this.flushSync();
  };

  #writeAll(bytes: Buffer): void {
    let rest = bytes;
    while (rest.length > 0) {
      try {
        rest = rest.subarray(writeSync(this.fd, rest));
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
