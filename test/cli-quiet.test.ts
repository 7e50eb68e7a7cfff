import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeProject } from './helpers/project.js';
import { runFolio } from './helpers/cli.js';
import { RED_PNG } from './helpers/media.js';

/**
 * `--quiet` leaves every confirmation out. A command that makes something whose identifier the caller did not
 * choose prints that identifier alone (docs create: the documentId; media add: each file's id; users create:
 * the user's id; tokens create: the key); every other write prints nothing. Nothing goes to stderr either.
 */
describe('--quiet on every command that writes', () => {
  let made: ReturnType<typeof makeProject>;
  beforeAll(() => {
    made = makeProject();
    writeFileSync(join(made.dir, 'red.png'), RED_PNG);
  });
  afterAll(() => made.cleanup());

  /** Runs the command with -q; it must succeed and print nothing on stderr. Answers its stdout. */
  const quiet = async (...args: string[]) => {
    const r = await runFolio([...args, '-q', '--dir', made.dir]);
    expect({ args, code: r.code, stderr: r.stderr }).toEqual({ args, code: 0, stderr: '' });
    return r.stdout;
  };

  it('docs: create prints the documentId alone; the other writes print nothing', async () => {
    const out = await quiet('docs', 'create', 'articles', '--data', '{"title":"Quiet"}');
    expect(out).toMatch(/^[a-z0-9]{24}\n$/);
    const id = out.trim();
    expect(await quiet('docs', 'update', 'articles', id, '--data', '{"title":"Still quiet"}')).toBe('');
    expect(await quiet('docs', 'unpublish', 'articles', id)).toBe('');
    expect(await quiet('docs', 'publish', 'articles', id)).toBe('');
    expect(await quiet('docs', 'update', 'articles', id, '--status', 'draft', '--data', '{"title":"Draft"}')).toBe('');
    expect(await quiet('docs', 'discard-draft', 'articles', id)).toBe('');
    expect(await quiet('docs', 'delete', 'articles', id)).toBe('');
  });

  it('media: add prints each new id alone; rm prints nothing', async () => {
    const out = await quiet('media', 'add', join(made.dir, 'red.png'));
    expect(out).toMatch(/^\d+\n$/);
    expect(await quiet('media', 'rm', out.trim())).toBe('');
  });

  it('users and tokens: create prints the id or the key alone; delete and revoke print nothing', async () => {
    const user = await quiet(
      'users',
      'create',
      '--username',
      'quiet',
      '--email',
      'q@example.com',
      '--password',
      'pw-123456',
    );
    expect(user).toMatch(/^\d+\n$/);
    expect(await quiet('users', 'delete', 'quiet')).toBe('');
    const key = await quiet('tokens', 'create', '--name', 'quiet');
    expect(key).toMatch(/^\S+\n$/);
    expect(await quiet('tokens', 'revoke', 'quiet')).toBe('');
  });

  it('permissions and locales print nothing', async () => {
    expect(await quiet('permissions', 'grant', 'api::article.article.find', '--role', 'public')).toBe('');
    expect(await quiet('permissions', 'revoke', 'api::article.article.find', '--role', 'public')).toBe('');
    expect(await quiet('locales', 'add', 'de')).toBe('');
    expect(await quiet('locales', 'remove', 'de')).toBe('');
  });

  it('types and components print nothing', async () => {
    expect(
      await quiet('types', 'create', '--singular', 'note', '--plural', 'notes', '--display-name', 'Note', '--yes'),
    ).toBe('');
    expect(await quiet('types', 'add-field', 'note', 'body', '--type', 'string', '--yes')).toBe('');
    expect(await quiet('types', 'rename-field', 'note', 'body', 'text')).toBe('');
    expect(await quiet('types', 'remove-field', 'note', 'text')).toBe('');
    expect(await quiet('types', 'delete', 'note', '--yes')).toBe('');
    expect(await quiet('components', 'create', 'shared.quiet', '--display-name', 'Quiet')).toBe('');
    expect(await quiet('components', 'add-field', 'shared.quiet', 'label', '--type', 'string', '--yes')).toBe('');
  });
});
