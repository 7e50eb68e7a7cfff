import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { buildOpenApi } from '../codegen/openapi.js';
import type { HttpModule } from './app.js';
import { methodNotAllowed, sendJson } from './respond.js';
import { isApiDocsPath } from './route-paths.js';

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
export const apiDocsModule: HttpModule = {
  async handle({ event, method, path, project }) {
    if (!isApiDocsPath(path)) return undefined;
    if (path === '/api/openapi.json') {
      if (method !== 'GET' && method !== 'HEAD') return methodNotAllowed(event, ['HEAD', 'GET']);
      return sendJson(event, 200, buildOpenApi(project.schemas));
    }
    if (method !== 'GET' && method !== 'HEAD') return methodNotAllowed(event, ['HEAD', 'GET']);
    const res = event.node.res;
    const name = path.slice('/documentation/'.length);
    if (path === '/documentation' || name === '' || name === 'index.html') {
      res.setHeader('content-type', 'text/html; charset=utf-8');
      return PAGE;
    }
    if (name === 'init.js') {
      res.setHeader('content-type', 'text/javascript; charset=utf-8');
      return INIT;
    }
    const type = ASSETS.get(name);
    if (!type || !assetDir) return undefined;
    res.setHeader('content-type', type);
    res.setHeader('cache-control', 'public, max-age=86400');
    return readFile(join(assetDir, name));
  },
};
