import type { Command } from 'commander';

/** Examples for the commands whose own module does not add them; every `--help` shows some. */
const EXAMPLES: Record<string, string[]> = {
  types: [
    'folio types list',
    'folio types create --display-name "Blog Post" --draft-and-publish',
    'folio types add-field blog-post title --type string --required',
  ],
  docs: [
    'folio docs list articles --sort title',
    'folio docs create categories --data \'{"name":"Tech"}\'',
    'folio docs publish articles <documentId>',
  ],
  components: ['folio components list', 'folio components create shared.hero'],
  media: ['folio media add cover.png --alt "Cover"', 'folio media list'],
  locales: ['folio locales list', 'folio locales add de --name "German (de)"'],
  permissions: ['folio permissions list', 'folio permissions grant article.find article.findOne'],
  users: ['echo "s3cret-pass" | folio users create --username ada --email ada@example.com', 'folio users list'],
  tokens: ['folio tokens create --name site-build --type read-only', 'folio tokens list'],
  webhooks: ['folio webhooks list', 'folio webhooks test site'],
  generate: ['folio generate types --out src/folio-types.ts', 'folio generate openapi --out openapi.json'],
  import: ['folio import strapi ../my-strapi-app'],
  'types list': ['folio types list', 'folio types list --json'],
  'types show': ['folio types show article', 'folio types show article --json'],
  'types remove-field': ['folio types remove-field article subtitle'],
  'types rename-field': ['folio types rename-field article subtitle standfirst'],
  'types delete': ['folio types delete tag --yes'],
  'components list': ['folio components list'],
  'components create': ['folio components create shared.hero --display-name Hero'],
  'components show': ['folio components show shared.seo'],
  'components add-field': ['folio components add-field shared.hero heading --type string --required'],
  'docs delete': ['folio docs delete articles <documentId>', 'folio docs delete articles <documentId> --locale "*"'],
  'docs publish': ['folio docs publish articles <documentId>', 'folio docs publish articles <documentId> --locale fr'],
  'docs unpublish': ['folio docs unpublish articles <documentId>'],
  'docs discard-draft': ['folio docs discard-draft articles <documentId>'],
  'locales list': ['folio locales list --json'],
  'locales remove': ['folio locales remove de', 'folio locales remove de --force'],
  'permissions list': ['folio permissions list', 'folio permissions list --role public'],
  'users list': ['folio users list --json'],
  'users delete': ['folio users delete ada'],
  'tokens list': ['folio tokens list'],
  'tokens revoke': ['folio tokens revoke site-build'],
  'media add': ['folio media add cover.png --alt "A red box" --caption "Cover"'],
  'media list': ['folio media list --json'],
  'media rm': ['folio media rm 3'],
  'webhooks list': ['folio webhooks list'],
  validate: ['folio validate', 'folio validate --json'],
  'import strapi': ['folio import strapi ../my-strapi-app', 'folio import strapi ../my-strapi-app --force'],
  'generate openapi': ['folio generate openapi --out openapi.json'],
};

/** Adds the examples above to each command that has none of its own. */
export function addExamples(program: Command) {
  const visit = (cmd: Command, path: string[]) => {
    for (const sub of cmd.commands) {
      const p = [...path, sub.name()];
      const key = p.join(' ');
      const examples = EXAMPLES[key];
      // Checked when help is shown, not here: formatting every command's help would slow every start.
      if (examples) {
        const text = `\nExample${examples.length > 1 ? 's' : ''}:\n${examples.map((e) => `  ${e}`).join('\n')}`;
        sub.addHelpText('after', () => (/Example/i.test(sub.helpInformation()) ? '' : text));
      }
      visit(sub, p);
    }
  };
  visit(program, []);
}
