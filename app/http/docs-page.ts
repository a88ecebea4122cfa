import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';

/**
 * `/docs`: Redoc renders the full reference (parameters, bodies, responses, examples) in the
 * browser from `/openapi.json`. Its script is served by this server from node_modules, never
 * from a CDN, so this page relaxes the API's CSP for itself only: scripts and styles from this
 * origin (Redoc injects its styles inline), the description fetched from this origin, and the
 * search index in a blob worker. Nothing else may load.
 */
export const DOCS_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; " +
  "connect-src 'self'; worker-src blob:; frame-ancestors 'none'";

export const DOCS_SCRIPT_PATH = '/docs/redoc.standalone.js';

const REDOC_BUNDLE = createRequire(import.meta.url).resolve('redoc/bundles/redoc.standalone.js');

let bundle: Promise<Buffer> | undefined;

/** The Redoc bundle (about 1 MB), read once. */
export function redocBundle(): Promise<Buffer> {
  bundle ??= readFile(REDOC_BUNDLE).catch((error: unknown) => {
    bundle = undefined;
    throw error;
  });
  return bundle;
}

const escape = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** Paths are relative, so the page works unchanged behind a proxy that mounts the API under a prefix. */
export function renderDocsPage(title: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)} API reference</title>
</head>
<body>
<noscript>The reference needs JavaScript. The description itself is at <a href="openapi.json">openapi.json</a> (OpenAPI 3.1).</noscript>
<redoc spec-url="openapi.json" expand-responses="200,201" required-props-first="true" path-in-middle-panel="true"></redoc>
<script src="${DOCS_SCRIPT_PATH.slice(1)}"></script>
</body>
</html>
`;
}
