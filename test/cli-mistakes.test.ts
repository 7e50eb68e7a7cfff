import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeProject } from './helpers/project.js';
import { runFolio, spawnFolio } from './helpers/cli.js';
import { spawnServe } from './helpers/serve.js';

/** What the CLI says when a user gets something wrong: the option or field they typed, and what they meant. */
describe('the CLI answers a mistake in the words the user typed', () => {
  let project: ReturnType<typeof makeProject>;
  const folio = (args: string[]) => runFolio([...args, '--dir', project.dir]);
  const documents = (plural: string) => {
    try {
      return readdirSync(join(project.contentDir, 'documents', plural)).length;
    } catch {
      return 0;
    }
  };

  beforeAll(async () => {
    project = makeProject();
    const r = await folio(['docs', 'create', 'articles', '--data', '{"title":"Hello"}']);
    expect(r.code, r.stderr).toBe(0);
  });
  afterAll(() => project.cleanup());

  it.each([
    ['--page', 'abc'],
    ['--page', '0'],
    ['--page', '2.5'],
    ['--page-size', '-3'],
  ])('docs list %s %s is a usage error naming the option', async (flag, value) => {
    const r = await folio(['docs', 'list', 'articles', flag, value]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`option '${flag} <n>' argument '${value}' is invalid`);
    expect(r.stderr).toContain('Expected a whole number of 1 or more.');
    expect(r.stderr).not.toMatch(/start|NaN/);
  });

  it.each([
    ['{"title":5}', 'title must be a string, not the number 5'],
    ['{"title":"t","views":"many"}', 'views must be a number, not the string "many"'],
    ['{"title":["a"]}', 'title must be a string, not a list (["a"])'],
  ])('--data %s names the field and the value given', async (data, message) => {
    const before = documents('articles');
    const r = await folio(['docs', 'create', 'articles', '--data', data]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`ValidationError: ${message}\n`);
    expect(documents('articles')).toBe(before);
  });

  it('--json keeps the API message of a wrong value and of an unknown key', async () => {
    const wrong = await folio(['docs', 'create', 'articles', '--data', '{"title":5}', '--json']);
    expect(JSON.parse(wrong.stderr).error.message).toBe('title must be a `string` type, but the final value was: `5`.');
    const unknown = await folio(['docs', 'create', 'articles', '--data', '{"titel":"x"}', '--json']);
    expect(JSON.parse(unknown.stderr).error.message).toBe('Invalid key titel');
  });

  it('an unknown field suggests the closest one, in the type or in its component', async () => {
    const top = await folio(['docs', 'create', 'articles', '--data', '{"titel":"x"}']);
    expect(top.code).toBe(1);
    expect(top.stderr).toMatch(
      /^ValidationError: article has no field "titel"\. Did you mean "title"\? Its fields: title, /,
    );
    const nested = await folio(['docs', 'create', 'articles', '--data', '{"title":"x","seo":{"metaTitel":"y"}}']);
    expect(nested.stderr).toMatch(
      /^ValidationError: seo \(shared\.seo\) has no field "metaTitel"\. Did you mean "metaTitle"\?/,
    );
    const far = await folio(['docs', 'create', 'articles', '--data', '{"title":"x","zzzz":1}']);
    expect(far.stderr).toMatch(/^ValidationError: article has no field "zzzz"\. Its fields: /);
  });

  it('an unknown type suggests the closest name', async () => {
    const list = await folio(['docs', 'list', 'artcles']);
    expect(list.code).toBe(1);
    expect(list.stderr).toMatch(/^Error: Unknown content-type "artcles"\. Did you mean "articles"\? Known types: /);
    const show = await folio(['types', 'show', 'artcle']);
    expect(show.stderr).toMatch(/Unknown content-type "artcle"\. Did you mean "article"\?/);
    const far = await folio(['docs', 'list', 'zebras']);
    expect(far.stderr).not.toContain('Did you mean');
  });

  it('an empty list says so, never "page 1 of 0"', async () => {
    const r = await folio(['docs', 'list', 'tags']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('No tags found.\n');
    const filtered = await folio(['docs', 'list', 'articles', '--filter', 'title=nothing']);
    expect(filtered.stdout).toBe('No articles found.\n');
    const past = await folio(['docs', 'list', 'articles', '--page', '3']);
    expect(past.stdout).toBe('page 3 of 1 (1 in all): past the last page\n');
  });

  it('--locale on a type without locales is refused, and nothing is written', async () => {
    // categories are not localized; de is not a locale of the project, fr is.
    for (const [locale, extra] of [
      ['de', ', and de is not a locale of this project (en, fr)'],
      ['fr', ''],
    ]) {
      const r = await folio(['docs', 'create', 'categories', '--data', '{"name":"Tech"}', '--locale', locale]);
      expect(r.code).toBe(1);
      const why = 'categories are not localized (one version for every locale)';
      expect(r.stderr).toBe(`Error: --locale ${locale}: ${why}${extra}; leave it out\n`);
    }
    expect(documents('categories')).toBe(0);
  });

  it("no command's help shows an option's default twice", async () => {
    const commandsOf = (help: string) =>
      [...(help.split('\nCommands:\n')[1] ?? '').matchAll(/^ {2}([a-z-]+)/gm)]
        .map((m) => m[1])
        .filter((c) => c !== 'help');
    const top = await runFolio(['--help']);
    const helps: string[] = [];
    for (const group of commandsOf(top.stdout)) {
      const g = await runFolio([group, '--help']);
      helps.push(g.stdout);
      for (const sub of commandsOf(g.stdout)) helps.push((await runFolio([group, sub, '--help'])).stdout);
    }
    expect(helps.length).toBeGreaterThan(30);
    // One option's description, its wrapped lines joined.
    const options = helps.flatMap((h) => h.replace(/\n {20,}/g, ' ').split('\n'));
    expect(options.filter((line) => /\bdefault\b.*\(default: /.test(line))).toEqual([]);
    expect(helps.join('\n')).toMatch(/--role <role> +role \(default: "authenticated"\)/);
  });
});

describe('what the CLI and the server say about broken files', () => {
  it('a folio.json that is not JSON: line and column, and its path once', async () => {
    const project = makeProject();
    try {
      writeFileSync(join(project.contentDir, 'folio.json'), '{\n  "rest": {}\n  "read": {}\n}\n');
      const r = await runFolio(['types', 'list', '--dir', project.dir]);
      expect(r.code).toBe(1);
      const file = join(project.contentDir, 'folio.json');
      expect(r.stderr).toBe(`Error: ${file}: 3:3: invalid JSON: expected a comma\n`);
    } finally {
      project.cleanup();
    }
  });

  it('the server log: folio.json named once, a document at line:column', { timeout: 90_000 }, async () => {
    const project = makeProject();
    const server = await spawnServe(project.dir);
    try {
      const folioJson = join(project.contentDir, 'folio.json');
      const good = readFileSync(folioJson, 'utf8');
      // The watcher starts after the ready line: the file is written again until the change is seen.
      const broken = () => writeFileSync(folioJson, '{ "locales": 5 }\n');
      await until(() => server.stderr().includes('keeping the last good state'), server.stderr, broken);
      expect(server.stderr()).toContain(
        'content/folio.json: "locales" must be a non-empty array; keeping the last good state\n',
      );
      expect(server.stderr()).not.toContain(folioJson);
      writeFileSync(folioJson, good);

      const created = await spawnFolio([
        'docs',
        'create',
        'tags',
        '--data',
        '{"name":"x"}',
        '-q',
        '--dir',
        project.dir,
      ]);
      const documentId = created.stdout.trim();
      const file = join('content', 'documents', 'tags', `${documentId}.json`);
      const trailing = () => writeFileSync(join(project.dir, file), `{\n  "documentId": "${documentId}",\n}\n`);
      await until(() => server.stderr().includes('serving the last good version'), server.stderr, trailing);
      expect(server.stderr()).toContain(`${file}: 3:1: invalid JSON: trailing comma; serving the last good version\n`);
      const validate = await runFolio(['validate', '--dir', project.dir]);
      expect(validate.stdout).toContain(`${file}: 3:1: invalid JSON: trailing comma\n`);
      const list = await runFolio(['docs', 'list', 'tags', '--dir', project.dir]);
      expect(list.stderr).toContain(`${join(project.dir, file)}: 3:1: invalid JSON: trailing comma\n`);
    } finally {
      await server.stop();
      project.cleanup();
    }
  });

  it('serve on a host that does not resolve says so, naming --host', async () => {
    const project = makeProject();
    try {
      const r = await spawnFolio(['serve', '--host', 'nosuchhost.invalid', '--port', '0', '--dir', project.dir]);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(
        /^Error: cannot listen on "nosuchhost\.invalid" \(from --host\): (no host has that name|its name could not be looked up); use a name or address of this machine/m,
      );
      expect(r.stderr).not.toMatch(/getaddrinfo|ENOTFOUND|EAI_AGAIN/);
    } finally {
      project.cleanup();
    }
  });
});

/**
 * Waits for what a running process prints (`said`), doing `act` again every half second until it shows: the
 * watcher reports within a second, slower on a busy machine.
 */
async function until(done: () => boolean, said: () => string, act: () => void) {
  for (let i = 0; i < 600 && !done(); i++) {
    if (i % 10 === 0) act();
    await new Promise((r) => setTimeout(r, 50));
  }
  expect(done(), said()).toBe(true);
}
