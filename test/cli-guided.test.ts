import { afterEach, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN } from './helpers/project.js';
import { runFolio } from './helpers/cli.js';
import { CTRL_C, DOWN, ENTER, erase, hasScript, inTerminal } from './helpers/terminal.js';

const dirs: string[] = [];
/** A project made by `folio init`, run in this process: the terminal runs below are what these tests watch. */
async function project(example?: string) {
  const dir = mkdtempSync(join(tmpdir(), 'folio-guided-'));
  dirs.push(dir);
  const init = await runFolio(['init', dir, '-q', ...(example ? ['--example', example] : [])]);
  if (init.code !== 0) throw new Error(init.stderr);
  return dir;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const schema = (dir: string, name: string) =>
  JSON.parse(readFileSync(join(dir, 'content', 'types', `${name}.json`), 'utf8'));

describe.skipIf(!hasScript)('guided modelling on a terminal', () => {
  it('types create asks for every name and option, checks each answer as typed, then loops over fields', async () => {
    const dir = await project();
    const { code, out } = await inTerminal(`node ${BIN} types create --dir ${dir}`, [
      { wait: /Display name/, send: `My Tag!${ENTER}` },
      { wait: /Singular API id \(my-tag\)/, send: `Person${ENTER}` },
      { wait: /must be kebab-case/, send: `${erase(6)}person${ENTER}` },
      // English plurals: Person is people, not persons.
      { wait: /Plural API id \(people\)/, send: ENTER },
      { wait: /Kind/, send: ENTER },
      { wait: /Draft & publish\?/, send: `n${ENTER}` },
      { wait: /Localized \(i18n\)\?/, send: ENTER },
      { wait: /Add a field to person\?/, send: ENTER },
      { wait: /Field name/, send: `id${ENTER}` },
      { wait: /"id" is a reserved attribute name/, send: `${erase(2)}fullName${ENTER}` },
      { wait: /Field type/, send: ENTER },
      { wait: /Required\?/, send: `y${ENTER}` },
      { wait: /Unique\?/, send: ENTER },
      { wait: /Minimum length/, send: ENTER },
      { wait: /Maximum length/, send: `abc${ENTER}` },
      { wait: /Enter a number/, send: `${erase(3)}80${ENTER}` },
      { wait: /Default value/, send: ENTER },
      { wait: /added fullName \(string\)[^]*Add a field to person\?/, send: `y${ENTER}` },
      { wait: /Field name/, send: `age${ENTER}` },
      // integer is the 8th kind of the list.
      { wait: /Field type/, send: `${DOWN.repeat(7)}${ENTER}` },
      { wait: /Required\?/, send: ENTER },
      { wait: /Unique\?/, send: ENTER },
      { wait: /Minimum \(empty/, send: `0${ENTER}` },
      { wait: /Maximum \(empty/, send: `-1${ENTER}` },
      { wait: /at least 0/, send: `${erase(2)}150${ENTER}` },
      { wait: /Default value/, send: ENTER },
      { wait: /Add a field to person\?/, send: `n${ENTER}` },
    ]);
    expect(code, out).toBe(0);
    expect(schema(dir, 'person')).toMatchObject({
      kind: 'collectionType',
      info: { singularName: 'person', pluralName: 'people', displayName: 'My Tag!' },
      options: { draftAndPublish: false },
      attributes: {
        fullName: { type: 'string', required: true, maxLength: 80 },
        age: { type: 'integer', min: 0, max: 150 },
      },
    });
    expect(schema(dir, 'person').attributes.fullName).not.toHaveProperty('unique');
  }, 60_000);

  it('add-field asks what the kind needs: enum values, default, relation target and inverse', async () => {
    const dir = await project('blog');
    const enumeration = await inTerminal(`node ${BIN} types add-field article stage --dir ${dir}`, [
      // enumeration is the 17th kind.
      { wait: /Field type/, send: `${DOWN.repeat(16)}${ENTER}` },
      { wait: /Values \(comma-separated\)/, send: `1x,b${ENTER}` },
      { wait: /must start with a letter/, send: `${erase(4)}draft,review,done${ENTER}` },
      { wait: /Required\?/, send: ENTER },
      { wait: /Default/, send: `${DOWN}${ENTER}` },
    ]);
    expect(enumeration.code, enumeration.out).toBe(0);
    expect(schema(dir, 'article').attributes.stage).toMatchObject({
      type: 'enumeration',
      enum: ['draft', 'review', 'done'],
      default: 'draft',
    });
    const listed = await runFolio(['types', 'list', '--json', '--dir', dir]);
    const targets = (JSON.parse(listed.stdout) as Array<{ uid: string }>).map((t) => t.uid);
    const relation = await inTerminal(`node ${BIN} types add-field article editor --dir ${dir}`, [
      // relation is the 20th kind; manyToOne the first relation.
      { wait: /Field type/, send: `${DOWN.repeat(19)}${ENTER}` },
      { wait: /Relation/, send: ENTER },
      {
        wait: /Target content-type[^]*author \(api::author\.author\)/,
        send: `${DOWN.repeat(targets.indexOf('api::author.author'))}${ENTER}`,
      },
      { wait: /Field on author that links back/, send: `name${ENTER}` },
      { wait: /author already has a field "name"/, send: `${erase(4)}editedArticles${ENTER}` },
    ]);
    expect(relation.code, relation.out).toBe(0);
    expect(schema(dir, 'article').attributes.editor).toEqual({
      type: 'relation',
      relation: 'manyToOne',
      target: 'api::author.author',
      inversedBy: 'editedArticles',
    });
    expect(schema(dir, 'author').attributes.editedArticles).toEqual({
      type: 'relation',
      relation: 'oneToMany',
      target: 'api::article.article',
      mappedBy: 'editor',
    });
  }, 60_000);

  it('asks for a password hidden, twice, and never shows it', async () => {
    const dir = await project();
    const { code, out } = await inTerminal(
      `node ${BIN} users create --username ada --email ada@example.com --dir ${dir}`,
      [
        { wait: /Password \(6 characters or more\)/, send: `s3cret-pass${ENTER}` },
        { wait: /The same password again/, send: `s3cret-typo${ENTER}` },
        // A confirmation that differs: both are asked again, empty.
        { wait: /Not the same password[\s\S]*Password \(6 characters or more\)/, send: `s3cret-pass${ENTER}` },
        { wait: /The same password again/, send: `s3cret-pass${ENTER}` },
      ],
    );
    expect(code, out).toBe(0);
    expect(out).toMatch(/created user ada/);
    expect(out).not.toContain('s3cret');
  }, 60_000);

  it('Ctrl-C leaves a prompt cleanly with status 130 and writes nothing', async () => {
    const dir = await project();
    const { code, out } = await inTerminal(`node ${BIN} types create --dir ${dir}`, [
      { wait: /Display name/, send: `Rec${CTRL_C}` },
    ]);
    expect(code).toBe(130);
    expect(out).not.toMatch(/Error|force closed|SIGINT/);
    expect(spawnSync('ls', [join(dir, 'content', 'types')], { encoding: 'utf8' }).stdout).toBe('');
  }, 60_000);

  it('--json on a terminal never asks either', async () => {
    const dir = await project();
    const created = await inTerminal(`node ${BIN} types create --json --dir ${dir}`, []);
    expect(created.code).toBe(1);
    expect(created.out).toContain('--display-name is required when not running in a terminal');
    expect((await runFolio(['types', 'create', '--display-name', 'Note', '--dir', dir])).code).toBe(0);
    const doc = await inTerminal(`node ${BIN} docs create notes --json --dir ${dir}`, []);
    expect(doc.code).toBe(1);
    expect(doc.out).toContain('No data: pass --data');
  }, 60_000);

  it('--yes on a terminal never asks: the flags and the defaults decide', async () => {
    const dir = await project();
    const { code, out } = await inTerminal(`node ${BIN} types create --display-name Person --yes --dir ${dir}`, []);
    expect(code, out).toBe(0);
    expect(out).not.toContain('?');
    expect(schema(dir, 'person').info).toMatchObject({ singularName: 'person', pluralName: 'people' });
  }, 60_000);
});

describe('relations to their own type', () => {
  it('add-field with --inverse on the same type writes both sides', async () => {
    const dir = await project();
    const run = (args: string[]) => runFolio([...args, '--dir', dir]);
    expect((await run(['types', 'create', '--display-name', 'Person'])).code).toBe(0);
    const r = await run(
      ['types', 'add-field', 'person', 'boss', '--type', 'relation', '--relation', 'manyToOne'].concat([
        '--target',
        'person',
        '--inverse',
        'reports',
      ]),
    );
    expect(r.code, r.stderr).toBe(0);
    expect(schema(dir, 'person').attributes).toEqual({
      boss: { type: 'relation', relation: 'manyToOne', target: 'api::person.person', inversedBy: 'reports' },
      reports: { type: 'relation', relation: 'oneToMany', target: 'api::person.person', mappedBy: 'boss' },
    });
    expect((await run(['validate'])).code).toBe(0);
  });
});

// Standard input and output are pipes here (runFolio's streams are no terminal), as in a script or CI.
describe('without a terminal nothing is asked', () => {
  it('types create takes the defaults (with English plurals) and add-field names the missing flag', async () => {
    const dir = await project();
    const run = (args: string[]) => runFolio([...args, '--dir', dir]);
    expect((await run(['types', 'create', '--display-name', 'Person'])).code).toBe(0);
    expect(schema(dir, 'person').info.pluralName).toBe('people');
    const r = await run(['types', 'add-field', 'person', 'name']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('Error: --type is required when not running in a terminal\n');
    const pw = await run(['users', 'create', '--username', 'ada', '--email', 'ada@example.com']);
    expect(pw.code).toBe(1);
  });
});
