import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The headless browser the page tests use: Debian's `chromium` (`.ci/run` installs it). */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? 'chromium';

/** Like requirePostgres: skipped with a notice locally, a failure under CI=true. */
export function requireChromium(): boolean {
  const found = spawnSync(CHROMIUM, ['--version'], { encoding: 'utf8', timeout: 30_000 });
  if (found.status === 0) return true;
  const message = `${CHROMIUM} is not installed (apt-get install chromium).`;
  if (process.env.CI === 'true') throw new Error(`${message} CI=true: the page tests fail instead of skipping.`);
  console.warn(`[skipped] ${message} The page tests are skipped locally; under CI=true they fail.`);
  return false;
}

export interface RenderedPage {
  /** The DOM after the page's scripts ran. */
  html: string;
  /** The browser's console, where CSP violations and script errors appear. */
  console: string[];
}

/** Loads `url` in headless Chromium, lets its scripts run (up to `budgetMs` of virtual time) and returns the DOM. */
export async function renderPage(url: string, budgetMs = 15_000): Promise<RenderedPage> {
  const profile = await mkdtemp(join(tmpdir(), 'tk-chromium-'));
  try {
    const args = [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      `--user-data-dir=${profile}`,
      '--enable-logging=stderr',
      '--v=0',
      `--virtual-time-budget=${budgetMs}`,
      '--dump-dom',
      url,
    ];
    const child = spawn(CHROMIUM, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), budgetMs + 45_000);
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    clearTimeout(timer);
    const console = Buffer.concat(err)
      .toString('utf8')
      .split('\n')
      .filter((line) => line.includes(':CONSOLE'));
    if (code !== 0) throw new Error(`chromium exited with ${code}: ${Buffer.concat(err).toString('utf8').slice(-2000)}`);
    return { html: Buffer.concat(out).toString('utf8'), console };
  } finally {
    await rm(profile, { recursive: true, force: true });
  }
}

/** The browser's path, as playwright-core's `executablePath` wants it (it does not search PATH). */
export function chromiumExecutable(): string {
  const found = spawnSync('sh', ['-c', `command -v "${CHROMIUM}"`], { encoding: 'utf8' });
  return found.stdout.trim() || CHROMIUM;
}
