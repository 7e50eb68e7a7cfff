/**
 * The inline nodes of Strapi's blocks format that the Studio edits: text nodes with their `bold`, `italic`,
 * `underline`, `strikethrough` and `code` flags, and links (`{ type: "link", url, children }`). Kept apart from
 * the ProseMirror editor (inline-text.ts), which is loaded only when a blocks field is shown.
 */

/** An inline node of the blocks format. */
export interface InlineNode {
  type: string;
  text?: string;
  url?: string;
  children?: InlineNode[];
  [key: string]: unknown;
}

/** The text flags, in the order they are written; a mark of the same name stands for each. */
export const FLAGS = ['bold', 'italic', 'underline', 'strikethrough', 'code'] as const;
export type Flag = (typeof FLAGS)[number];

const KNOWN_TEXT_KEYS = new Set(['type', 'text', ...FLAGS]);

/** Whether inline nodes are only what this editor writes back as it read them (text with flags, and links). */
export function editableInline(nodes: unknown): nodes is InlineNode[] {
  if (!Array.isArray(nodes)) return false;
  return nodes.every((n: InlineNode) => {
    if (n?.type === 'text')
      return (
        typeof n.text === 'string' &&
        Object.entries(n).every(([k, v]) => KNOWN_TEXT_KEYS.has(k) && (k === 'type' || k === 'text' || v === !!v))
      );
    if (n?.type === 'link')
      return (
        typeof n.url === 'string' &&
        Object.keys(n).every((k) => k === 'type' || k === 'url' || k === 'children') &&
        Array.isArray(n.children) &&
        n.children.every((c) => c?.type === 'text') &&
        editableInline(n.children)
      );
    return false;
  });
}

/** A list item of the blocks format. */
export interface ListItem {
  type: 'list-item';
  children: InlineNode[];
}

/** What the view edits: one line (`line`) or list items (`list`), in the blocks format. */
export type Content = { kind: 'line'; children: InlineNode[] } | { kind: 'list'; children: ListItem[] };

/** Keyboard shortcuts of the flags, as toolbars show them (ProseMirror's names: Mod is Ctrl, or Cmd on a Mac). */
export const FLAG_KEYS: Record<Flag, string> = {
  bold: 'Mod-b',
  italic: 'Mod-i',
  underline: 'Mod-u',
  strikethrough: 'Mod-Shift-x',
  code: 'Mod-e',
};
