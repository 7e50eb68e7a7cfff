import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AuthService, createApiToken } from '../src/auth/service.js';
import { FIXTURE_CONFIG, makeProject } from './helpers/project.js';
import { spawnServe, type ServeProcess } from './helpers/serve.js';
import { bearer, jwtPayload } from './helpers/auth.js';
import { form } from './helpers/media.js';

/**
 * A running `folio serve` follows content/folio.json: the `users` and `upload` sections apply to the next
 * request; a new server.port or server.host is logged as waiting for a restart.
 */
describe('folio.json settings applied by a running server', () => {
  let made: ReturnType<typeof makeProject>;
  let serve: ServeProcess;
  let token: string;
  beforeAll(async () => {
    made = makeProject({ config: { users: { ratelimit: { enabled: false } } } });
    await new AuthService(made.dir).createUser({ username: 'ada', email: 'ada@example.com', password: 'pw-123456' });
    token = (await createApiToken(made.dir, { name: 'live', type: 'full-access' })).accessKey;
    serve = await spawnServe(made.dir);
  });
  afterAll(async () => {
    await serve?.stop();
    made.cleanup();
  });

  /**
   * Writes folio.json as an editor saving it would (written aside, then renamed), so the server never reads half
   * a file.
   */
  const writeConfig = (config: Record<string, unknown>) => {
    const file = join(made.contentDir, 'folio.json');
    writeFileSync(`${file}.tmp`, JSON.stringify({ ...FIXTURE_CONFIG, ...config }, null, 2));
    renameSync(`${file}.tmp`, file);
  };
  /** Resolves once the server's output, from now on, matches `pattern` (the test's timeout bounds the wait). */
  const printed = (stream: 'stdout' | 'stderr', pattern: RegExp) => {
    const from = serve[stream]().length;
    return new Promise<void>((resolve) => {
      const look = () => pattern.test(serve[stream]().slice(from)) && resolve();
      serve.proc[stream]!.on('data', look);
    });
  };
  /** Writes folio.json and waits for the server to say it reloaded it. */
  const settings = async (config: Record<string, unknown>) => {
    const reloaded = printed('stdout', /reloaded schemas/);
    writeConfig(config);
    await reloaded;
  };
  const login = async () => {
    const res = await fetch(`${serve.base}/api/auth/local`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ identifier: 'ada', password: 'pw-123456' }),
    });
    return {
      status: res.status,
      cookie: res.headers.get('set-cookie'),
      body: (await res.json()) as Record<string, string>,
    };
  };
  const sessions = async (jwt: string) =>
    (await fetch(`${serve.base}/api/auth/sessions`, { headers: bearer(jwt) })).status;
  const noLimit = { ratelimit: { enabled: false } };

  it('users.httpOnly', async () => {
    const cookie = await login();
    expect(Object.keys(cookie.body).sort()).toEqual(['jwt', 'user']);
    expect(cookie.cookie).toMatch(/^strapi_up_refresh=/);
    await settings({ users: { ...noLimit, httpOnly: false } });
    const body = await login();
    expect(Object.keys(body.body).sort()).toEqual(['jwt', 'refreshToken', 'user']);
    expect(body.cookie).toBeNull();
  });

  it('users.jwtManagement, both ways', async () => {
    await settings({ users: { ...noLimit, jwtManagement: 'legacy' } });
    const legacy = await login();
    expect(Object.keys(legacy.body).sort()).toEqual(['jwt', 'user']);
    const claims = jwtPayload(legacy.body.jwt);
    expect(Number(claims.exp) - Number(claims.iat)).toBe(30 * 24 * 3600);
    expect(await sessions(legacy.body.jwt)).toBe(404);
    expect((await fetch(`${serve.base}/api/auth/refresh`, { method: 'POST' })).status).toBe(404);

    await settings({ users: { ...noLimit, jwtManagement: 'refresh' } });
    const refresh = await login();
    const access = jwtPayload(refresh.body.jwt);
    expect(Number(access.exp) - Number(access.iat)).toBe(600);
    expect(await sessions(refresh.body.jwt)).toBe(200);
  });

  it('users.ratelimit', async () => {
    await settings({ users: { ratelimit: { enabled: true, max: 1, interval: 60_000 } } });
    expect((await login()).status).toBe(200);
    expect((await login()).status).toBe(429);
    await settings({ users: noLimit });
    expect((await login()).status).toBe(200);
  });

  it('upload.sizeLimit', async () => {
    const send = () =>
      fetch(`${serve.base}/api/upload`, {
        method: 'POST',
        headers: bearer(token),
        body: form([{ name: 'blob.bin', data: Buffer.alloc(5000, 7) }]),
      });
    expect((await send()).status).toBe(201);
    await settings({ users: noLimit, upload: { sizeLimit: 1000 } });
    expect((await send()).status).toBe(413);
    // A broken upload section is refused as a broken folio.json is: the last good settings stay.
    const refused = printed('stderr', /upload\.sizeLimit.*keeping the last good state/);
    writeConfig({ users: noLimit, upload: { sizeLimit: 'big' } });
    await refused;
    expect((await send()).status).toBe(413);
  });

  it('server.port and server.host wait for a restart, and say so', async () => {
    await settings({ users: noLimit, server: { port: 4999, host: '0.0.0.0' } });
    expect(serve.stderr()).toContain('server.port is now 4999; restart "folio serve" to use it');
    expect(serve.stderr()).toContain('server.host is now "0.0.0.0"; restart "folio serve" to use it');
    expect((await fetch(`${serve.base}/_health`)).status).toBe(204);
  });
});
