/**
 * The inline text of one block of Strapi's blocks format, edited with ProseMirror: text nodes with their
 * `bold`, `italic`, `underline`, `strikethrough` and `code` flags, and links (`{ type: "link", url, children }`).
 * A paragraph, heading or quote is one line of such text; a list is several (one a list item).
 */

import { baseKeymap, toggleMark } from 'prosemirror-commands';
import { history, redo, undo } from 'prosemirror-history';
import { keymap } from 'prosemirror-keymap';
import { Mark, Schema, type MarkSpec, type MarkType, type Node as PMNode } from 'prosemirror-model';
import { EditorState, TextSelection, type Command, type Transaction } from 'prosemirror-state';
import { EditorView } from 'prosemirror-view';
import 'prosemirror-view/style/prosemirror.css';
import { FLAG_KEYS, FLAGS, type Content, type Flag, type InlineNode, type ListItem } from './blocks-format';

const tagMark = (tag: string, also: string[] = []): MarkSpec => ({
  parseDOM: [tag, ...also].map((t) => ({ tag: t })),
  toDOM: () => [tag, 0],
});

// The link comes first, so it wraps the other marks in the page, as a link node wraps its text nodes.
const marks: Record<string, MarkSpec> = {
  link: {
    attrs: { href: {} },
    inclusive: false,
    parseDOM: [{ tag: 'a[href]', getAttrs: (dom) => ({ href: (dom as HTMLElement).getAttribute('href') }) }],
    toDOM: (m) => ['a', { href: m.attrs.href as string, rel: 'noopener noreferrer nofollow' }, 0],
  },
  bold: tagMark('strong', ['b']),
  italic: tagMark('em', ['i']),
  underline: tagMark('u'),
  strikethrough: tagMark('s', ['del', 'strike']),
  code: tagMark('code'),
};

/** One line of text (a paragraph, heading or quote is its whole editor). */
const lineSchema = new Schema({ nodes: { doc: { content: 'text*' }, text: {} }, marks });
/** List items, one line each. */
const listSchema = new Schema({
  nodes: {
    doc: { content: 'item+' },
    item: { content: 'text*', parseDOM: [{ tag: 'li' }, { tag: 'p' }], toDOM: () => ['div', { class: 'item' }, 0] },
    text: {},
  },
  marks,
});

/** ProseMirror text nodes from inline nodes (empty texts, which ProseMirror does not hold, are dropped). */
function toText(schema: Schema, nodes: InlineNode[], link?: Mark): PMNode[] {
  return nodes.flatMap((n) => {
    if (n.type === 'link') return toText(schema, n.children ?? [], schema.marks.link.create({ href: n.url }));
    if (!n.text) return [];
    const set = FLAGS.filter((f) => n[f] === true).map((f) => schema.marks[f].create());
    return [schema.text(n.text, Mark.setFrom(link ? [link, ...set] : set))];
  });
}

/** Inline nodes from a ProseMirror line: consecutive text under the same link is one link node. */
function fromText(line: PMNode): InlineNode[] {
  const out: InlineNode[] = [];
  line.forEach((child) => {
    const node: InlineNode = { type: 'text', text: child.text ?? '' };
    let url: string | undefined;
    for (const m of child.marks) {
      if (m.type.name === 'link') url = m.attrs.href as string;
      else node[m.type.name] = true;
    }
    const last = out[out.length - 1];
    if (url === undefined) out.push(node);
    else if (last?.type === 'link' && last.url === url) last.children!.push(node);
    else out.push({ type: 'link', url, children: [node] });
  });
  // A block always holds at least one text node, as Strapi's editor writes an empty one.
  return out.length ? out : [{ type: 'text', text: '' }];
}

function toDoc(content: Content): PMNode {
  if (content.kind === 'line') return lineSchema.node('doc', null, toText(lineSchema, content.children));
  const items = content.children.map((item) => listSchema.node('item', null, toText(listSchema, item.children)));
  return listSchema.node('doc', null, items.length ? items : [listSchema.node('item')]);
}

function fromDoc(kind: Content['kind'], doc: PMNode): InlineNode[] | ListItem[] {
  if (kind === 'line') return fromText(doc);
  const items: ListItem[] = [];
  doc.forEach((item) => items.push({ type: 'list-item', children: fromText(item) }));
  return items;
}

/** The link the selection is in or touches: its extent in the selection's line and its URL. */
export function linkAt(state: EditorState): { from: number; to: number; href: string } | undefined {
  const type = state.schema.marks.link;
  const { $from, from, to } = state.selection;
  const start = $from.start();
  const spans: { from: number; to: number; mark: Mark | undefined }[] = [];
  $from.parent.forEach((child, offset) => {
    spans.push({ from: start + offset, to: start + offset + child.nodeSize, mark: type.isInSet(child.marks) });
  });
  const i = spans.findIndex((s) => s.mark && s.from <= to && s.to >= from && (from === to ? s.to > from : true));
  const hit = i === -1 ? spans.find((s) => s.mark && s.to === from) : spans[i];
  if (!hit?.mark) return undefined;
  let a = spans.indexOf(hit);
  let b = a;
  while (a > 0 && spans[a - 1].mark?.eq(hit.mark)) a--;
  while (b < spans.length - 1 && spans[b + 1].mark?.eq(hit.mark)) b++;
  return { from: spans[a].from, to: spans[b].to, href: hit.mark.attrs.href as string };
}

/** Links the selection to `href` (or the link the cursor is in; with nothing selected, inserts the URL). */
export function setLink(view: EditorView, href: string) {
  const { state } = view;
  const type = state.schema.marks.link;
  const { from, to, empty } = state.selection;
  const around = linkAt(state);
  const tr = state.tr;
  if (empty && around)
    tr.removeMark(around.from, around.to, type).addMark(around.from, around.to, type.create({ href }));
  else if (empty) tr.insert(from, state.schema.text(href, [type.create({ href })]));
  else tr.removeMark(from, to, type).addMark(from, to, type.create({ href }));
  view.dispatch(tr);
}

/** Removes the link the selection is in, and any link in the selection. */
export function removeLink(view: EditorView) {
  const { state } = view;
  const around = linkAt(state);
  const from = Math.min(state.selection.from, around?.from ?? Infinity);
  const to = Math.max(state.selection.to, around?.to ?? -Infinity);
  view.dispatch(state.tr.removeMark(from, to, state.schema.marks.link));
}

/** Whether a flag is on where the selection is (for a toolbar's pressed state). */
export function flagActive(state: EditorState, flag: Flag): boolean {
  const type: MarkType = state.schema.marks[flag];
  const { from, to, empty, $from } = state.selection;
  if (empty) return !!type.isInSet(state.storedMarks ?? $from.marks());
  return state.doc.rangeHasMark(from, to, type);
}

/** Turns a flag on or off over the selection. */
export function toggleFlag(view: EditorView, flag: Flag) {
  toggleMark(view.state.schema.marks[flag])(view.state, view.dispatch);
}

/** Gives the editor the selection the page shows, when it has not heard of it yet. */
export function syncSelection(view: EditorView) {
  const sel = document.getSelection();
  if (!sel?.anchorNode || !sel.focusNode || !view.dom.contains(sel.anchorNode) || !view.dom.contains(sel.focusNode))
    return;
  try {
    const anchor = view.posAtDOM(sel.anchorNode, sel.anchorOffset);
    const head = view.posAtDOM(sel.focusNode, sel.focusOffset);
    const { selection } = view.state;
    if (anchor !== selection.anchor || head !== selection.head)
      view.dispatch(view.state.tr.setSelection(TextSelection.create(view.state.doc, anchor, head)));
  } catch {
    // A position the editor cannot map (outside its text): it keeps the selection it has.
  }
}

const insertBreak: Command = (state, dispatch) => {
  dispatch?.(state.tr.insertText('\n').scrollIntoView());
  return true;
};

/**
 * A ProseMirror view in `host` over `content`. `onChange` receives the edited inline nodes (or list items) after
 * each change; `onLink` is asked for by Ctrl/Cmd+K; `onSelect` is told when the selection or focus moves.
 */
export function mountInline(
  host: HTMLElement,
  content: Content,
  opts: {
    label: string;
    onChange(children: InlineNode[] | ListItem[]): void;
    onLink(view: EditorView): void;
    onSelect(view: EditorView): void;
    /** Whether the text may be changed now (not in a disabled form). */
    editable(): boolean;
  },
): { view: EditorView; reset(content: Content): void } {
  // A shortcut pressed right after the selection moved may come before the selectionchange that tells the editor.
  const withSelection =
    (run: (view: EditorView) => void): Command =>
    (_s, _d, view) => {
      if (!view) return false;
      syncSelection(view);
      run(view);
      return true;
    };
  const flagKeys = Object.fromEntries(FLAGS.map((f) => [FLAG_KEYS[f], withSelection((view) => toggleFlag(view, f))]));
  const plugins = [
    history(),
    keymap({
      ...flagKeys,
      'Mod-k': withSelection((view) => opts.onLink(view)),
      'Mod-z': undo,
      'Mod-y': redo,
      'Mod-Shift-z': redo,
      'Shift-Enter': insertBreak,
      // A line breaks within itself; a list's Enter makes a new item (baseKeymap's split).
      ...(content.kind === 'line' ? { Enter: insertBreak } : {}),
    }),
    keymap(baseKeymap),
  ];
  const create = (c: Content) => EditorState.create({ doc: toDoc(c), plugins });
  const view = new EditorView(host, {
    state: create(content),
    editable: () => opts.editable(),
    attributes: {
      role: 'textbox',
      'aria-multiline': 'true',
      'aria-label': opts.label,
      class: `inline-text ${content.kind}`,
    },
    dispatchTransaction(tr: Transaction) {
      const next = view.state.apply(tr);
      view.updateState(next);
      if (tr.docChanged) opts.onChange(fromDoc(content.kind, next.doc));
      opts.onSelect(view);
    },
    handleDOMEvents: {
      focus: (v) => {
        opts.onSelect(v);
        return false;
      },
    },
  });
  return {
    view,
    reset(c: Content) {
      view.updateState(create(c));
    },
  };
}
