import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { makeProject } from './helpers/project.js';
import { runFolio, spawnFolio } from './helpers/cli.js';

/**
 * Webhook headers carry credentials (a receiver's token), and content/folio.json is committed: a header may name
 * an environment variable instead of holding the value, `folio validate` says which credentials sit there in clear,
 * and `folio webhooks test` sends what the environment holds.
 */
describe('webhook headers from the environment', () => {
  let receiver: Server;
  let url = '';
  const seen: IncomingHttpHeaders[] = [];
  let made: ReturnType<typeof makeProject>;
  beforeAll(async () => {
    receiver = createServer((req, res) => {
      seen.push(req.headers);
      req.resume();
      res.end('{}');
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    made = makeProject({
      config: {
        webhooks: [
          { name: 'site', url, headers: { Authorization: { env: 'FOLIO_TEST_HOOK_TOKEN' }, 'X-Site': 'blog' } },
          { name: 'clear', url, headers: { 'X-Api-Key': 'k3y-in-git' } },
        ],
      },
    });
  });
  afterAll(async () => {
    made?.cleanup();
    await new Promise((r) => receiver.close(r));
  });

  it('sends the value of the variable a header names, read when the webhook is sent', async () => {
    const r = await spawnFolio(['webhooks', 'test', 'site', '--dir', made.dir], {
      env: { FOLIO_TEST_HOOK_TOKEN: 'Bearer from-the-environment' },
    });
    expect(r.code, r.stderr).toBe(0);
    expect(seen.at(-1)).toMatchObject({ authorization: 'Bearer from-the-environment', 'x-site': 'blog' });
  });

  it('sends nothing when the variable is not set, and says which', async () => {
    const before = seen.length;
    // Not set in the tests' environment.
    const r = await spawnFolio(['webhooks', 'test', 'site', '--dir', made.dir]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(
      'site: FAILED (header Authorization: the environment variable FOLIO_TEST_HOOK_TOKEN is not set)',
    );
    expect(seen.length).toBe(before);
  });

  it('has folio validate point at a credential written in clear, and not at one from the environment', async () => {
    const r = await runFolio(['validate', '--dir', made.dir]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('notice: content/folio.json: webhooks[1].headers.X-Api-Key: a credential in clear');
    expect(r.stderr).not.toContain('webhooks[0]');
  });

  it('refuses a header that is neither a string nor { "env": NAME }', async () => {
    const bad = makeProject({ config: { webhooks: [{ url, headers: { Authorization: { env: 'A B' } } }] } });
    try {
      const r = await runFolio(['validate', '--dir', bad.dir]);
      expect(r.code).toBe(1);
      expect(r.stderr + r.stdout).toContain(
        'webhooks[0].headers must map names to strings or to { "env": "VARIABLE" }',
      );
    } finally {
      bad.cleanup();
    }
  });
});
