import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, makeProject } from './helpers/project.js';
import { AuthService } from '../src/auth/service.js';

const run = promisify(execFile);

/**
 * Users live in `.folio/users.json`, which every process reads, changes and writes again: two processes
 * creating users at once (terminals, a script, the CLI beside a server's register) must each keep the other's.
 */
describe('folio users create run in parallel', () => {
  const made = makeProject();
  afterAll(() => made.cleanup());

  it('keeps every user, each with an id of its own', async () => {
    const names = Array.from({ length: 6 }, (_, i) => `user${i}`);
    await Promise.all(
      names.map((name) =>
        run(
          process.execPath,
          [BIN, 'users', 'create', '--username', name, '--email', `${name}@example.com`, '--password', 'pw-123456'],
          { cwd: made.dir, env: { ...process.env, NO_COLOR: '1' } },
        ),
      ),
    );
    const users = new AuthService(made.dir).listUsers();
    expect(users.map((u) => u.username).sort()).toEqual(names);
    expect(new Set(users.map((u) => u.id)).size).toBe(names.length);
  });
});
