import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { Logger } from 'pino';

/**
 * One debug line every `everyMs` with the process's memory and event-loop delay over the interval
 * (p50/p99/max, ms): what an operator looks at when latency creeps up or memory grows. `npm start`
 * runs it when APP_LOG_LEVEL=debug.
 */
export function logRuntimeStats(logger: Logger, everyMs = 5_000): { stop(): void } {
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  const ms = (ns: number) => Math.round(ns / 1e4) / 100;
  const timer = setInterval(() => {
    const memory = process.memoryUsage();
    logger.debug(
      {
        rss_mb: Math.round(memory.rss / 1e5) / 10,
        heap_used_mb: Math.round(memory.heapUsed / 1e5) / 10,
        event_loop_delay_ms: { p50: ms(delay.percentile(50)), p99: ms(delay.percentile(99)), max: ms(delay.max) },
      },
      'runtime stats',
    );
    delay.reset();
  }, everyMs);
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      delay.disable();
    },
  };
}
