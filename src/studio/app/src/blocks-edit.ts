/** Strapi's blocks format as the blocks field edits it: block kinds, their text, and turning one kind into another. */

import { editableInline, FLAGS } from './blocks-format';

/** A node of Strapi's blocks format (paragraphs, headings, lists, quotes, code, images, and their inline nodes). */
export interface Node {
  type: string;
  text?: string;
  level?: number;
  format?: string;
  children?: Node[];
  [key: string]: unknown;
}

export const KINDS: [string, string][] = [
  ['paragraph', 'Paragraph'],
  ['heading-1', 'Heading 1'],
  ['heading-2', 'Heading 2'],
  ['heading-3', 'Heading 3'],
  ['heading-4', 'Heading 4'],
  ['heading-5', 'Heading 5'],
  ['heading-6', 'Heading 6'],
  ['quote', 'Quote'],
  ['code', 'Code'],
  ['list-unordered', 'Bulleted list'],
  ['list-ordered', 'Numbered list'],
];

export const kindOf = (b: Node) =>
  b.type === 'heading' ? `heading-${b.level ?? 1}` : b.type === 'list' ? `list-${b.format ?? 'unordered'}` : b.type;

export const text = (t: string): Node => ({ type: 'text', text: t });

/** The plain text of inline nodes. */
export const textOf = (nodes: Node[] = []): string =>
  nodes.map((n) => (n.type === 'text' ? (n.text ?? '') : textOf(n.children))).join('');

/** How a block is edited: one line of formatted text, list items, plain code, or not at all (kept as it is). */
export function editorOf(b: Node): 'line' | 'list' | 'code' | undefined {
  if (b.type === 'code') return b.children?.every((c) => c.type === 'text') !== false ? 'code' : undefined;
  if (b.type === 'list')
    return (b.children ?? []).every((i) => i.type === 'list-item' && editableInline(i.children)) ? 'list' : undefined;
  if (b.type === 'paragraph' || b.type === 'heading' || b.type === 'quote')
    return editableInline(b.children ?? []) ? 'line' : undefined;
  return undefined;
}

/** The inline nodes of a block's text, a list's items joined by line breaks. */
export function inlineOf(b: Node): Node[] {
  if (b.type === 'code') return [text(textOf(b.children))];
  if (b.type !== 'list') return b.children?.length ? b.children : [text('')];
  const joined = (b.children ?? []).flatMap((item, i) => [...(i ? [text('\n')] : []), ...(item.children ?? [])]);
  // Texts of the same formatting side by side are one text node, as the editor writes them.
  const same = (a: Node, c: Node) =>
    a.type === 'text' && c.type === 'text' && FLAGS.every((f) => (a[f] === true) === (c[f] === true));
  return joined.reduce<Node[]>((out, n) => {
    const last = out[out.length - 1];
    if (last && same(last, n)) out[out.length - 1] = { ...last, text: `${last.text ?? ''}${n.text ?? ''}` };
    else out.push(n);
    return out;
  }, []);
}

/** A block turned into another kind, keeping its text and, where the kind has it, its formatting. */
export function convert(b: Node, kind: string): Node {
  if (kind === 'code') return { type: 'code', children: [text(b.type === 'list' ? blockText(b) : textOf(b.children))] };
  if (kind.startsWith('list-')) {
    const items =
      b.type === 'list'
        ? (b.children ?? [])
        : b.type === 'code'
          ? textOf(b.children)
              .split('\n')
              .map((line) => ({ type: 'list-item', children: [text(line)] }))
          : [{ type: 'list-item', children: inlineOf(b) }];
    return { type: 'list', format: kind.slice(5), children: items };
  }
  const children = inlineOf(b);
  if (kind.startsWith('heading-')) return { type: 'heading', level: Number(kind.slice(8)), children };
  return { type: kind, children };
}

/** A list's text, one item a line. */
export const blockText = (b: Node) => (b.children ?? []).map((item) => textOf(item.children)).join('\n');

/** The links the API takes: web, mail, phone and FTP addresses, and paths of the site. */
export const LINK_URL = /^(?:https?:|ftp:|mailto:|tel:|\/(?![/\\]))/;
export const LINK_RULE =
  'A link starts with https://, http://, mailto:, tel:, ftp: or / (a path of the site, not //host or /\\host).';

/** A typed link as saved: a bare domain gets https://; empty is no link; false when the API would refuse it. */
export function linkUrl(typed: string): string | false | undefined {
  const url = typed.trim();
  if (!url) return undefined;
  if (/[\t\n\r]/.test(url)) return false;
  if (LINK_URL.test(url)) return url;
  return /^[^\s/:.]+\.[^\s:]+$/.test(url) ? `https://${url}` : false;
}

/** A new, empty block of a kind. */
export const emptyBlock = (kind: string): Node => convert({ type: 'paragraph', children: [text('')] }, kind);
