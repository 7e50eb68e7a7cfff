import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'node:http';
import { startTestServer, type TestServer } from './helpers/project.js';

const SECURITY = [
  'content-security-policy',
  'referrer-policy',
  'x-content-type-options',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-frame-options',
  'x-permitted-cross-domain-policies',
];

/** The header lines of an answer as sent, in order, as lower-cased name and value. */
function headLines(base: string, method: string, path: string, headers: Record<string, string>) {
  return new Promise<{ status: number; lines: Array<[string, string]> }>((resolve, reject) => {
    const req = request(new URL(path, base), { method, headers, agent: false }, (res) => {
      res.resume();
      res.on('end', () => {
        const lines: Array<[string, string]> = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2)
          lines.push([res.rawHeaders[i].toLowerCase(), res.rawHeaders[i + 1]]);
        resolve({ status: res.statusCode!, lines });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * A read of the content API writes its security headers as lines built once (`FolioResponse`); every other answer
 * sets them as headers, which a route may replace with a stricter policy. Either way each one is sent once, first,
 * in the same order, and a route's own policy is the only one a client sees.
 */
describe('every answer carries each security header once, before its other headers', () => {
  let s: TestServer;
  let fileUrl: string;

  beforeAll(async () => {
    s = await startTestServer({ config: { server: { trustProxy: true } } });
    await s.api('/api/articles', { method: 'POST', body: { data: { title: 'One' } } });
    const form = new FormData();
    form.append('files', new Blob(['hello'], { type: 'text/plain' }), 'a.txt');
    const up = await fetch(`${s.url}/api/upload`, { method: 'POST', headers: s.auth, body: form });
    fileUrl = (await up.json())[0].url;
  });
  afterAll(() => s.stop());

  const cases: Array<[string, string, string, string | undefined]> = [
    ['a list read', 'GET', '/api/articles', undefined],
    ['a list read, HEAD', 'HEAD', '/api/articles?sort=title:asc', undefined],
    ['an unknown type', 'GET', '/api/nowhere', undefined],
    ['a bad query', 'GET', '/api/articles?filters[nope][$eq]=1', undefined],
    ['a route before the content API', 'GET', '/api/i18n/locales', undefined],
    ['a write refused', 'DELETE', '/api/articles/none', undefined],
    ['Folio Studio', 'GET', '/admin', "form-action 'self'"],
    ['a stored file', 'GET', '', 'sandbox'],
  ];

  it.each(cases)('%s', async (_name, method, path, ownPolicy) => {
    for (const https of [false, true]) {
      const headers: Record<string, string> = { ...s.auth, ...(https ? { 'x-forwarded-proto': 'https' } : {}) };
      const { lines } = await headLines(s.url, method, path || fileUrl, headers);
      const names = lines.map(([name]) => name);
      for (const name of [...SECURITY, ...(https ? ['strict-transport-security'] : [])])
        expect(
          names.filter((n) => n === name),
          `${name} (https: ${https})`,
        ).toHaveLength(1);
      if (!https) expect(names).not.toContain('strict-transport-security');
      const csp = lines.find(([name]) => name === 'content-security-policy')![1];
      if (ownPolicy) expect(csp).toContain(ownPolicy);
      else {
        expect(names.slice(0, SECURITY.length)).toEqual(SECURITY);
        expect(csp).toContain("connect-src 'self' https:");
      }
    }
  });
});
