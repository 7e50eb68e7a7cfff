import type { Attribute, Model } from './model';

/** An API name as people read it: `publishDate` is "Publish date", `meta_title` "Meta title", `SEO` stays. */
export function readable(name: string): string {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/(?<=[A-Z])(?=[A-Z][a-z])/g, ' ')
    .split(/[\s_.-]+/)
    .filter(Boolean);
  if (!words.length) return name;
  const lower = words.map((w, i) => (i > 0 && !/^[A-Z0-9]+$/.test(w) ? w.toLowerCase() : w));
  return lower[0][0].toUpperCase() + lower.join(' ').slice(1);
}

/** The label of an attribute: the name its schema gives it, else its API name made readable. */
export const labelOf = (name: string, attr: Attribute): string => attr.displayName ?? readable(name);

/** "a" or "an" before a name, by its sound as most such names go ("an Author", "a User", "an SEO entry"). */
export function article(word: string): string {
  const w = word.trim();
  if (/^(uni|use|usa|eu|one|once)/i.test(w)) return 'a';
  if (/^[AEIOU]/i.test(w) || /^[FHLMNRSX]([A-Z0-9]|$)/.test(w) || /^hour|^honest/i.test(w)) return 'an';
  return 'a';
}

/** A name with its article: `withArticle('Author')` is "an Author". */
export const withArticle = (word: string) => `${article(word)} ${word}`;

const KINDS: Record<string, string> = {
  string: 'Text',
  text: 'Long text',
  richtext: 'Markdown',
  email: 'E-mail address',
  uid: 'Identifier for addresses (letters, digits, - _ . ~)',
  integer: 'Whole number',
  biginteger: 'Whole number',
  float: 'Number',
  decimal: 'Number',
  boolean: 'Yes or no',
  enumeration: 'One of a list',
  date: 'Date',
  time: 'Time',
  datetime: 'Date and time',
  json: 'JSON',
  password: 'Password (stored hashed)',
  blocks: 'Rich text in blocks',
  media: 'Media',
  relation: 'Link to other entries',
  component: 'Component',
  dynamiczone: 'Dynamic zone',
};

/** What an attribute takes, said for people: its kind and the limits its schema sets (shown as the field's help). */
export function hintOf(attr: Attribute, model?: Model): string {
  const parts: string[] = [];
  if (attr.type === 'component' && attr.component && model)
    parts.push(
      `${model.components.get(attr.component)?.displayName ?? attr.component}${attr.repeatable ? ', repeatable' : ''}`,
    );
  else parts.push(KINDS[attr.type] ?? attr.type);
  if (attr.type === 'media') {
    if (attr.multiple) parts.push('several files');
    if (attr.allowedTypes?.length) parts.push(attr.allowedTypes.join(', '));
  }
  if (attr.minLength !== undefined && attr.maxLength !== undefined)
    parts.push(`${attr.minLength} to ${attr.maxLength} characters`);
  else if (attr.maxLength !== undefined) parts.push(`at most ${attr.maxLength} characters`);
  else if (attr.minLength !== undefined) parts.push(`at least ${attr.minLength} characters`);
  if (attr.type !== 'component' && attr.type !== 'dynamiczone') {
    if (attr.min !== undefined && attr.max !== undefined) parts.push(`from ${attr.min} to ${attr.max}`);
    else if (attr.min !== undefined) parts.push(`${attr.min} or more`);
    else if (attr.max !== undefined) parts.push(`${attr.max} or less`);
  } else if (attr.min !== undefined) parts.push(`at least ${attr.min} entries`);
  if (attr.regex) parts.push(`matching /${attr.regex}/`);
  if (attr.unique) parts.push('unique');
  return parts.join(', ');
}
