import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderPage, requireChromium, type RenderedPage } from '../support/chromium';
import { startOfflineApp, type OfflineApp } from '../support/offline-app';

const chromium = requireChromium();

/** The text of the operation `id`, up to the next operation (Redoc repeats the id on a wrapper). */
function section(html: string, id: string): string {
  const start = html.lastIndexOf(`id="${id}"`);
  if (start < 0) return '';
  const end = html.indexOf('id="operation/', start + id.length + 5);
  return html
    .slice(start, end < 0 ? undefined : end)
    .replace(/<[^>]+>/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');
}

describe.skipIf(!chromium)('/docs in a real browser', () => {
  let app: OfflineApp;
  let page: RenderedPage;

  beforeAll(async () => {
    app = await startOfflineApp();
    page = await renderPage(`${app.url}/docs`);
  }, 90_000);
  afterAll(() => app?.close());

  it("renders an operation with its parameters and its response's schema", () => {
    const listProjects = section(page.html, 'operation/listProjects');
    expect(listProjects).toContain('get /projects');
    expect(listProjects).toMatch(/query Parameters limit integer \[ 1 \.\. 1000 \] At most this many projects/);
    expect(listProjects).toMatch(/cursor string <= 200 characters Opaque/);
    // The 200 response is expanded: its array of Project, field by field, with types.
    expect(listProjects).toMatch(/Response Schema: application\/json.*id required integer.*name required string.*created_at required string <date-time>/);
    expect(listProjects).toMatch(/422 VALIDATION_ERROR/);
  });

  it('renders request bodies with their limits, and every operation', () => {
    const createProject = section(page.html, 'operation/createProject');
    expect(createProject).toMatch(/Request Body schema: application\/json.*name required string \[ 1 \.\. 200 \] characters/);
    expect(createProject).toMatch(/description string or null/);
    expect(createProject).toMatch(/201 The new project Response Headers Location.*Response Schema: application\/json id required integer/);
    for (const operationId of ['signup', 'login', 'getCurrentUser', 'listMembers', 'createInvitation', 'getIdpAuthorizeUrl']) {
      expect(page.html).toContain(`id="operation/${operationId}"`);
    }
  });

  it('loads nothing from another origin and runs without script errors', () => {
    // Redoc's footer logo points at its CDN: the page's CSP blocks it, which is the point.
    const problems = page.console.filter((line) => !line.includes('cdn.redoc.ly/redoc/logo-mini.svg'));
    expect(problems).toEqual([]);
  });
});
