import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { buildOpenApi } from '../codegen/openapi.js';
import { notFound } from '../errors.js';
import { sendJson } from '../http-kit/respond.js';
import type { RouteHandler } from '../http-kit/route.js';

const ASSETS = new Map([
  ['swagger-ui.css', 'text/css; charset=utf-8'],
  ['swagger-ui-bundle.js', 'text/javascript; charset=utf-8'],
  ['favicon-32x32.png', 'image/png'],
]);

/** Where swagger-ui-dist is installed: the page's assets are served from it (no CDN). */
const assetDir = (() => {
  try {
    return dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  } catch {
    return undefined;
  }
})();

const PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Folio API documentation</title>
<link rel="stylesheet" href="/documentation/swagger-ui.css">
<link rel="icon" href="/documentation/favicon-32x32.png"></head>
<body><div id="docs"></div><script src="/documentation/swagger-ui-bundle.js"></script>
<script src="/documentation/init.js"></script></body></html>`;
const INIT = `window.ui = SwaggerUIBundle({ url: '/api/openapi.json', dom_id: '#docs', deepLinking: true });`;

/**
 * `GET /api/openapi.json`: the OpenAPI 3.1 document of the live schemas (the generator behind
 * `folio generate openapi`), and `GET /documentation`: Swagger UI rendering it, served locally.
 */
export const apiDocsHandlers: Record<'openapi' | 'page', RouteHandler> = {
  openapi: ({ event, project }) => sendJson(event, 200, buildOpenApi(project.schemas)),
  async page({ event, params }) {
    const res = event.node.res;
    const name = params._ ?? '';
    if (name === '' || name === 'index.html') {
      res.setHeader('content-type', 'text/html; charset=utf-8');
      return PAGE;
    }
    if (name === 'init.js') {
      res.setHeader('content-type', 'text/javascript; charset=utf-8');
      return INIT;
    }
    const type = ASSETS.get(name);
    if (!type || !assetDir) throw notFound();
    res.setHeader('content-type', type);
    res.setHeader('cache-control', 'public, max-age=86400');
    return readFile(join(assetDir, name));
  },
};
