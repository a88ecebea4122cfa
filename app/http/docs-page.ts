/**
 * A dependency-free, human-readable page over the OpenAPI description: every operation with
 * its method, path, role, request and responses. Rendered on the server, so it needs no script
 * and no CDN; it only relaxes `style-src` for its own inline stylesheet.
 */
export const DOCS_CSP = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'";

const escape = (value: unknown) =>
  String(value).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

type Doc = { info: { title: string; version: string }; paths: Record<string, Record<string, Record<string, unknown>>> };

export function renderDocsPage(doc: Doc): string {
  const byTag = new Map<string, string[]>();
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      const tag = ((op.tags as string[]) ?? ['Other'])[0]!;
      const role = (op['x-required-role'] as string | undefined) ?? 'public';
      const body = (op.requestBody as { content: Record<string, { schema: unknown }> } | undefined)?.content['application/json']?.schema;
      const statuses = Object.entries(op.responses as Record<string, { description: string }>)
        .map(([status, r]) => `<li><code>${escape(status)}</code> ${escape(r.description)}</li>`)
        .join('');
      const html =
        `<section><h3><span class="m">${escape(method.toUpperCase())}</span> <code>${escape(path)}</code></h3>` +
        `<p>${escape(op.summary)} · <code>${escape(op.operationId)}</code> · access: <b>${escape(role)}</b></p>` +
        (body ? `<details><summary>Request body</summary><pre>${escape(JSON.stringify(body, null, 2))}</pre></details>` : '') +
        `<ul>${statuses}</ul></section>`;
      byTag.set(tag, [...(byTag.get(tag) ?? []), html]);
    }
  }
  const sections = [...byTag]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([tag, ops]) => `<h2>${escape(tag)}</h2>${ops.join('')}`)
    .join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escape(doc.info.title)} API</title>
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:960px;margin:2rem auto;padding:0 1rem;color:#222}
section{border-top:1px solid #ddd;padding:.5rem 0}.m{display:inline-block;min-width:4.5rem;font-weight:700}
pre{background:#f6f6f6;padding:.5rem;overflow:auto}code{background:#f3f3f3;padding:0 .2rem}</style></head>
<body><h1>${escape(doc.info.title)} API <small>${escape(doc.info.version)}</small></h1>
<p>Machine-readable description: <a href="/openapi.json">/openapi.json</a> (OpenAPI 3.1).</p>${sections}</body></html>`;
}
