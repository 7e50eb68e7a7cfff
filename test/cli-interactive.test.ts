import { describe, expect, it } from 'vitest';
import { readFileSync, rmSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, startTestServer } from './helpers/project.js';
import { runFolio } from './helpers/cli.js';
import { ENTER, hasScript, inTerminal } from './helpers/terminal.js';

describe.skipIf(!hasScript)('interactive prompts in a terminal', () => {
  it('types create asks for what the flags do not say', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'folio-tty-'));
    try {
      await runFolio(['init', dir, '-q']);
      // Each answer typed once its question is on screen: the singular and plural ids, the kind and i18n
      // take their defaults; no draft & publish, and no field yet.
      const { code } = await inTerminal(`node ${BIN} types create --dir ${dir}`, [
        { wait: /Display name/, send: `Recipe Card${ENTER}` },
        { wait: /Singular API id \(recipe-card\)/, send: ENTER },
        { wait: /Plural API id \(recipe-cards\)/, send: ENTER },
        { wait: /Kind/, send: ENTER },
        { wait: /Draft & publish\?/, send: `n${ENTER}` },
        { wait: /Localized \(i18n\)\?/, send: ENTER },
        { wait: /Add a field to recipe-card\?/, send: `n${ENTER}` },
      ]);
      expect(code).toBe(0);
      const schema = JSON.parse(readFileSync(join(dir, 'content', 'types', 'recipe-card.json'), 'utf8'));
      expect(schema).toMatchObject({
        kind: 'collectionType',
        info: { singularName: 'recipe-card', pluralName: 'recipe-cards', displayName: 'Recipe Card' },
        options: { draftAndPublish: false },
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('docs create without --data asks for each field', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'folio-tty-'));
    try {
      await runFolio(['init', dir, '--example', 'blog', '-q']);
      const { code, out } = await inTerminal(`node ${BIN} docs create categories --dir ${dir}`, [
        { wait: /name \(required\) \(string\)/, send: `Robotics${ENTER}` },
        { wait: /slug \(uid\)/, send: `robotics${ENTER}` },
        { wait: /description \(text\)/, send: `Machines that move${ENTER}` },
      ]);
      expect(code).toBe(0);
      expect(out).toMatch(/created category [a-z0-9]{24}/);
      // Set up and checked in this process (see helpers/cli.ts): the prompts are what runs in a terminal.
      const list = await runFolio(['docs', 'list', 'categories', '--json', '--dir', dir, '--filter', 'name=Robotics']);
      expect(JSON.parse(list.stdout).data[0]).toMatchObject({
        name: 'Robotics',
        slug: 'robotics',
        description: 'Machines that move',
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('users create: a rejected password is gone, the next one starts empty (the confirmation too)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'folio-tty-'));
    try {
      await runFolio(['init', dir, '-q']);
      const command = `node ${BIN} users create --username ada --email ada@example.com --dir ${dir}`;
      // Too short, then a confirmation that differs: each time both questions are asked again, empty.
      const { code, out } = await inTerminal(command, [
        { wait: /Password \(6 characters or more\)/, send: `short${ENTER}` },
        { wait: /Enter 6 characters or more[\s\S]*Password \(6 characters or more\)/, send: `s3cret-pass${ENTER}` },
        { wait: /The same password again/, send: `s3cret${ENTER}` },
        { wait: /Not the same password[\s\S]*Password \(6 characters or more\)/, send: `s3cret-pass${ENTER}` },
        { wait: /The same password again/, send: `s3cret-pass${ENTER}` },
      ]);
      expect(code, out).toBe(0);
      expect(out).toMatch(/created user ada/);
      const server = await startTestServer({ dir });
      try {
        const login = (password: string) =>
          server.api('/api/auth/local', { method: 'POST', body: { identifier: 'ada', password }, anonymous: true });
        expect((await login('s3cret-pass')).status).toBe(200);
        expect((await login('shorts3cret-pass')).status).toBe(400);
      } finally {
        await server.stop();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
