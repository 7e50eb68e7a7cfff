import { describe, expect, it } from 'vitest';
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, rmSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN } from './helpers/project.js';
import { runFolio } from './helpers/cli.js';

/**
 * Runs the CLI in a pseudo-terminal (util-linux `script`) and types the answers, as a person would: once
 * the first question is on screen (starting the CLI takes a while on a busy machine, and what is typed
 * before a prompt exists is lost), then one answer every 400 ms.
 */
function inTerminal(command: string, answers: string[]): Promise<string> {
  return new Promise((resolve) => {
    const child = spawn('script', ['-qec', command, '/dev/null'], { env: { ...process.env, NO_COLOR: '1' } });
    let out = '';
    let timer: NodeJS.Timeout | undefined;
    let i = 0;
    child.stdout.on('data', (c) => {
      out += c;
      if (timer || !out.includes('?')) return;
      timer = setInterval(() => {
        if (i < answers.length) child.stdin.write(answers[i++]);
        else {
          clearInterval(timer);
          child.stdin.end();
        }
      }, 400);
    });
    child.on('exit', () => {
      clearInterval(timer);
      resolve(out);
    });
  });
}

const hasScript = spawnSync('script', ['--version']).status === 0;

describe.skipIf(!hasScript)('interactive prompts in a terminal', () => {
  it('types create asks for what the flags do not say', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'folio-tty-'));
    try {
      await runFolio(['init', dir, '-q']);
      // display name, singular (default), plural (default), kind (first choice), draft & publish (no), i18n (default
      // no)
      await inTerminal(`node ${BIN} types create --dir ${dir}`, ['Recipe Card\r', '\r', '\r', '\r', 'n\r', '\r']);
      const schema = JSON.parse(readFileSync(join(dir, 'content', 'types', 'recipe-card.json'), 'utf8'));
      expect(schema).toMatchObject({
        kind: 'collectionType',
        info: { singularName: 'recipe-card', pluralName: 'recipe-cards', displayName: 'Recipe Card' },
        options: { draftAndPublish: false },
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);

  it('docs create without --data asks for each field', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'folio-tty-'));
    try {
      await runFolio(['init', dir, '--example', 'blog', '-q']);
      const out = await inTerminal(`node ${BIN} docs create categories --dir ${dir}`, [
        'Robotics\r',
        'robotics\r',
        'Machines that move\r',
      ]);
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
  }, 30_000);
});
