import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { escapeHtml } from './html';

/**
 * `/docs`: Swagger UI renders the reference from `/openapi.json` and sends requests from the page
 * ("Try it out"). Its script and stylesheet are served by this server from node_modules, never
 * from a CDN, so this page relaxes the API's CSP for itself only: scripts and styles from this
 * origin (Swagger UI also sets inline styles), images and fonts from here or `data:`, and requests
 * to this origin only, which is where the description's relative server URL points. Being on the
 * API's own origin, the page's requests carry the session cookie like a same-site frontend's:
 * log in from the page and the operations after it run as that user.
 */
export const DOCS_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; " +
  "connect-src 'self'; form-action 'none'; base-uri 'none'; frame-ancestors 'none'";

/** The files of the page, by their path under `/docs/`. */
export const DOCS_ASSETS = {
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui.css': 'text/css; charset=utf-8',
  'reference.js': 'text/javascript; charset=utf-8',
} as const;

export type DocsAsset = keyof typeof DOCS_ASSETS;

const SWAGGER_UI_DIR = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

/**
 * Starts Swagger UI on the page. Kept as a file of its own, not inline, so the CSP needs no
 * `unsafe-inline` script. `validatorUrl: null`: no badge fetched from swagger.io.
 */
const REFERENCE_SCRIPT = `"use strict";
window.ui = SwaggerUIBundle({
  url: "openapi.json",
  dom_id: "#reference",
  deepLinking: true,
  validatorUrl: null,
  tryItOutEnabled: true,
  displayRequestDuration: true,
  docExpansion: "list",
  defaultModelsExpandDepth: 0,
  filter: true,
  withCredentials: true,
});
`;

const cache = new Map<DocsAsset, Promise<Buffer>>();

/** One asset of the page (Swagger UI's bundle is about 1.7 MB), read once. */
export function docsAsset(name: DocsAsset): Promise<Buffer> {
  let content = cache.get(name);
  if (!content) {
    content = name === 'reference.js' ? Promise.resolve(Buffer.from(REFERENCE_SCRIPT)) : readFile(join(SWAGGER_UI_DIR, name));
    content.catch(() => cache.delete(name));
    cache.set(name, content);
  }
  return content;
}

/** Paths are relative, so the page works unchanged behind a proxy that mounts the API under a prefix. */
export function renderDocsPage(title: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} API reference</title>
<link rel="stylesheet" href="docs/swagger-ui.css">
</head>
<body>
<noscript>The reference needs JavaScript. The description itself is at <a href="openapi.json">openapi.json</a> (OpenAPI 3.1).</noscript>
<div id="reference"></div>
<script src="docs/swagger-ui-bundle.js"></script>
<script src="docs/reference.js"></script>
</body>
</html>
`;
}
