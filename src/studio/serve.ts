import { readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { extname, join, relative, sep } from 'node:path';
import { notFound } from '../errors.js';
import type { RouteHandler } from '../http-kit/route.js';

/** Where `npm run build` puts the Studio (vite): the same folder whether this runs from src/ or from dist/. */
export const STUDIO_BUILD_DIR = join(import.meta.dirname, '..', '..', 'dist', 'studio', 'app');

/** The Studio's path prefix (as written). */
export const STUDIO_PATH = '/admin';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};

/**
 * The built files, listed once: a request can only name one of them, so no path from a URL ever reaches
 * the file system (no `..`, no encoded separators to defend against).
 */
function listBuild(dir: string): Set<string> {
  const files = new Set<string>();
  const walk = (d: string) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const full = join(d, entry.name);
      if (entry.isDirectory()) walk(full);
      else files.add(relative(dir, full).split(sep).join('/'));
    }
  };
  try {
    walk(dir);
  } catch {
    // Not built: the module answers a page that says so.
  }
  return files;
}

/**
 * The page runs its own scripts and styles only, so content shown in it (a Markdown preview) can run nothing; it
 * loads images and media from this server only (a remote image in a preview would tell another site who reads
 * it, and when), and no form on it can post anywhere but here.
 */
const CSP = [
  "default-src 'self'",
  "img-src 'self' data: blob:",
  "media-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const NOT_BUILT = `<!doctype html><html lang="en">
<head><meta charset="utf-8"><title>Folio Studio</title></head>
<body><main><h1>Folio Studio is not built</h1>
<p>Run <code>npm run build</code> in the Folio package.</p></main></body></html>`;

/**
 * `GET /admin/...`: Folio Studio, the editor in the browser. Its built files are served as they are; any
 * other path under /admin answers the app's page, whose client-side router shows the screen the path names.
 * Asset names carry a content hash, so they are cached for good; the page itself is always revalidated.
 */
export function studioHandlers(dir = STUDIO_BUILD_DIR): Record<'app', RouteHandler> {
  let files: Set<string> | undefined;
  return {
    async app({ event, method, path }) {
      files ??= listBuild(dir);
      const res = event.node.res;
      let name = path.slice(STUDIO_PATH.length + 1);
      if (!files.has(name)) {
        if (name.startsWith('assets/')) throw notFound();
        name = 'index.html';
      }
      if (!files.has(name)) {
        res.statusCode = 503;
        res.setHeader('content-type', TYPES['.html']);
        return NOT_BUILT;
      }
      res.setHeader('content-type', TYPES[extname(name)] ?? 'application/octet-stream');
      res.setHeader('x-content-type-options', 'nosniff');
      res.setHeader('cache-control', name.startsWith('assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
      if (name === 'index.html') {
        res.setHeader('x-frame-options', 'DENY');
        res.setHeader('content-security-policy', CSP);
      }
      const body = await readFile(join(dir, name));
      return method === 'HEAD' ? null : body;
    },
  };
}
