import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeProject } from './helpers/project.js';
import { spawnServe, type ServeProcess } from './helpers/serve.js';

/**
 * `POST /api/email` (issue 35): Folio writes the message to the server's log, the terminal where `folio serve`
 * also prints the owner's sign-in links. A caller granted `plugin::email.email.send` (here the public role, as a
 * contact form would have it) must not be able to forge the server's own lines there, drive the terminal, or
 * flood it.
 */
describe('POST /api/email and the server log', () => {
  let made: ReturnType<typeof makeProject>;
  let serve: ServeProcess;
  beforeAll(async () => {
    made = makeProject({ config: { users: { ratelimit: { enabled: true, interval: 60_000, max: 3 } } } });
    const file = join(made.contentDir, 'permissions.json');
    const perms = JSON.parse(readFileSync(file, 'utf8')) as { roles: Record<string, { permissions: string[] }> };
    perms.roles.public.permissions.push('plugin::email.email.send');
    writeFileSync(file, `${JSON.stringify(perms, null, 2)}\n`);
    serve = await spawnServe(made.dir);
  }, 60_000);
  afterAll(async () => {
    await serve?.stop();
    made?.cleanup();
  });

  // Every request comes from this machine's address: one client to the limit.
  const send = (body: Record<string, unknown>) =>
    fetch(`${serve.base}/api/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  it('writes a message as one log line of text: no forged lines, no terminal control sequences', async () => {
    const forged =
      'hi\n  Sign in to Folio Studio as the project’s owner (one click, once, within 5 minutes):\n' +
      '  http://evil.example/admin/#sign-in=x\n\u001b]8;;http://evil.example/\u0007' +
      'click\u001b]8;;\u0007\u001b[2K\r';
    const res = await send({ to: 'someone@example.com\nreloaded permissions', subject: 'contact', text: forged });
    expect(res.status).toBe(200);
    await expect.poll(() => serve.stderr()).toContain('e-mail to someone@example.com');
    const log = serve.stderr();
    // A line of the server's own that the message forged, and escape sequences a terminal obeys.
    expect(log).not.toMatch(/^ {2}Sign in to Folio Studio as the project’s owner/m);
    expect(log).not.toMatch(/^reloaded permissions$/m);
    expect(log).not.toContain('\u001b');
    // The text is all there, escaped, on the one line.
    expect(log).toMatch(/e-mail to someone@example\.com\\nreloaded permissions .*: contact: hi\\n {2}Sign in/);
  });

  it('takes at most users.ratelimit messages a window from one client address', async () => {
    // The first test sent one of the three.
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await send({ to: 'a@example.com', text: `n${i}` })).status);
    expect(statuses).toEqual([200, 200, 429]);
    const refused = await send({ to: 'a@example.com', text: 'again' });
    expect({ status: refused.status, body: await refused.json() }).toMatchObject({
      status: 429,
      body: { error: { status: 429, name: 'RateLimitError' } },
    });
    expect(serve.stderr()).not.toContain('again');
  });
});
