import { describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { AfterResponse } from './after-response';

function recordingLogger() {
  const lines: Array<Record<string, unknown>> = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
  return { logger, lines };
}

describe('AfterResponse', () => {
  it('starts the work only after the current turn, and drain waits for it', async () => {
    const after = new AfterResponse(recordingLogger().logger);
    const events: string[] = [];
    after.run('t', async () => {
      events.push('work');
    });
    events.push('response');
    await after.drain();
    expect(events).toEqual(['response', 'work']);
  });

  it('logs a failure instead of throwing it at nobody', async () => {
    const { logger, lines } = recordingLogger();
    const after = new AfterResponse(logger);
    after.run('forgot-password', async () => {
      throw new Error('database down');
    });
    await after.drain();
    expect(lines).toEqual([expect.objectContaining({ level: 50, task: 'forgot-password', err: expect.objectContaining({ message: 'database down' }) })]);
  });
});
