import { useEffect, useRef, useState } from 'preact/hooks';
import type { EditorView } from 'prosemirror-view';
import type { Attribute } from './model';
import { FieldError } from './field-error';
import { MediaField, type MediaFile } from './media-field';
import {
  editableInline,
  FLAG_KEYS,
  FLAGS,
  type Content,
  type Flag,
  type InlineNode,
  type ListItem,
} from './blocks-format';

type Editing = typeof import('./inline-text');
/** The ProseMirror editor, loaded with the first blocks field shown (it is most of the Studio's code). */
let editing: Editing | undefined;
const loadEditing = () => import('./inline-text').then((m) => (editing = m));

/** A node of Strapi's blocks format (paragraphs, headings, lists, quotes, code, images, and their inline nodes). */
interface Node {
  type: string;
  text?: string;
  level?: number;
  format?: string;
  children?: Node[];
  [key: string]: unknown;
}

const KINDS: [string, string][] = [
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

const FLAG_LABELS: Record<Flag, string> = {
  bold: 'Bold',
  italic: 'Italic',
  underline: 'Underline',
  strikethrough: 'Strikethrough',
  code: 'Code',
};

/** A ProseMirror key name as aria-keyshortcuts writes it (`Mod-Shift-x`: `Control+Shift+X Meta+Shift+X`). */
const ariaKeys = (key: string) =>
  ['Control', 'Meta']
    .map((mod) =>
      key
        .replace('Mod', mod)
        .split('-')
        .map((k) => (k.length === 1 ? k.toUpperCase() : k))
        .join('+'),
    )
    .join(' ');

const kindOf = (b: Node) =>
  b.type === 'heading' ? `heading-${b.level ?? 1}` : b.type === 'list' ? `list-${b.format ?? 'unordered'}` : b.type;

const text = (t: string): Node => ({ type: 'text', text: t });

/** The plain text of inline nodes. */
const textOf = (nodes: Node[] = []): string =>
  nodes.map((n) => (n.type === 'text' ? (n.text ?? '') : textOf(n.children))).join('');

/** How a block is edited: one line of formatted text, list items, plain code, or not at all (kept as it is). */
function editorOf(b: Node): 'line' | 'list' | 'code' | undefined {
  if (b.type === 'code') return b.children?.every((c) => c.type === 'text') !== false ? 'code' : undefined;
  if (b.type === 'list')
    return (b.children ?? []).every((i) => i.type === 'list-item' && editableInline(i.children)) ? 'list' : undefined;
  if (b.type === 'paragraph' || b.type === 'heading' || b.type === 'quote')
    return editableInline(b.children ?? []) ? 'line' : undefined;
  return undefined;
}

/** The inline nodes of a block's text, a list's items joined by line breaks. */
function inlineOf(b: Node): Node[] {
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
function convert(b: Node, kind: string): Node {
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
const blockText = (b: Node) => (b.children ?? []).map((item) => textOf(item.children)).join('\n');

/** The links the API takes: web, mail, phone and FTP addresses, and paths of the site. */
const LINK_URL = /^(https?:|ftp:|mailto:|tel:|\/)/;
const LINK_RULE = 'A link starts with https://, http://, mailto:, tel:, ftp: or / (a path of the site).';

/** A typed link as saved: a bare domain gets https://; empty is no link; false when the API would refuse it. */
function linkUrl(typed: string): string | false | undefined {
  const url = typed.trim();
  if (!url) return undefined;
  if (LINK_URL.test(url)) return url;
  return /^[^\s/:]+\.[^\s:]+$/.test(url) ? `https://${url}` : false;
}

/** A new, empty block of a kind. */
const emptyBlock = (kind: string): Node => convert({ type: 'paragraph', children: [text('')] }, kind);

/** An image block: its picture and its file's name. */
function ImageBlock({ image }: { image: MediaFile | undefined }) {
  const src = image?.formats?.thumbnail?.url ?? image?.url;
  return (
    <figure class="image-block">
      {src && <img src={src} alt={image?.alternativeText ?? ''} />}
      <figcaption>Image {image?.name ?? ''}</figcaption>
    </figure>
  );
}

/**
 * A ProseMirror view over one block's text. Its content is read again only when the block changes from outside
 * (a reorder, a change of kind, a reload), never from its own edits, so typing is never interrupted.
 */
function InlineText(props: {
  editing: Editing;
  content: Content;
  label: string;
  ordered?: boolean;
  onChange(children: InlineNode[] | ListItem[]): void;
  onLink(view: EditorView): void;
  onSelect(view: EditorView): void;
}) {
  const host = useRef<HTMLDivElement>(null);
  const editor = useRef<ReturnType<Editing['mountInline']> | undefined>(undefined);
  // What this view wrote since it was last set from outside: a render can come late with an older one of them.
  const own = useRef(new WeakSet<object>([props.content.children]));
  const latest = useRef(props);
  latest.current = props;
  useEffect(() => {
    const e = props.editing.mountInline(host.current!, props.content, {
      label: props.label,
      onChange: (children) => {
        own.current.add(children);
        latest.current.onChange(children);
      },
      onLink: (view) => latest.current.onLink(view),
      onSelect: (view) => latest.current.onSelect(view),
      editable: () => !host.current?.closest('fieldset[disabled]'),
    });
    editor.current = e;
    return () => e.view.destroy();
  }, []);
  useEffect(() => {
    if (!editor.current || own.current.has(props.content.children)) return;
    own.current = new WeakSet([props.content.children]);
    editor.current.reset(props.content);
  }, [props.content.children]);
  useEffect(() => editor.current?.view.dom.setAttribute('aria-label', props.label), [props.label]);
  return <div ref={host} class={`inline-host${props.ordered ? ' ordered' : ''}`} />;
}

/**
 * A blocks attribute: its blocks in order, each with its kind and its text; blocks can be added, reordered and
 * removed. Paragraphs, headings, quotes and list items take bold, italic, underline, strikethrough, inline code and
 * links (the toolbar, or Ctrl/Cmd+B, I, U, Shift+X, E and K). A block is rewritten only when it is edited, so
 * the others stay as they were read; images, and text this editor does not know, are kept as they are.
 */
export function BlocksField(props: {
  name: string;
  /** The field's id and the path its controls name, when the name is not unique on the page (in components). */
  path?: string;
  attr: Attribute;
  value: unknown;
  error?: string;
  onChange(value: Node[]): void;
}) {
  const { name, value, error, onChange } = props;
  const path = props.path ?? name;
  const blocks = (Array.isArray(value) ? value : []) as Node[];
  const [kind, setKind] = useState('paragraph');
  /** An image block is added once its image is chosen (the API takes no image block without one). */
  const [choosing, setChoosing] = useState(false);
  const active = useRef<EditorView | undefined>(undefined);
  const [, redraw] = useState(0);
  const [linking, setLinking] = useState<
    { view: EditorView; href: string; existing: boolean; problem?: string } | undefined
  >();
  const [pm, setPm] = useState(editing);
  const [unloaded, setUnloaded] = useState(false);
  useEffect(() => {
    if (!pm && blocks.some((b) => editorOf(b) === 'line' || editorOf(b) === 'list'))
      loadEditing().then(setPm, () => setUnloaded(true));
  }, [!pm && blocks.length]);
  const set = (i: number, b: Node) => onChange(blocks.map((x, j) => (j === i ? b : x)));
  const move = (from: number, to: number) => {
    const next = [...blocks];
    next.splice(to, 0, ...next.splice(from, 1));
    onChange(next);
  };
  const view = pm && active.current && !active.current.isDestroyed ? active.current : undefined;
  const select = (v: EditorView) => {
    active.current = v;
    redraw((n) => n + 1);
  };
  const openLink = (v: EditorView) => {
    editing?.syncSelection(v);
    const at = editing?.linkAt(v.state);
    setLinking({ view: v, href: at?.href ?? '', existing: !!at });
  };
  const closeLink = (apply?: 'set' | 'remove') => {
    const href = apply === 'set' ? linkUrl(linking?.href ?? '') : undefined;
    if (href === false) return setLinking({ ...linking!, problem: LINK_RULE });
    if (linking && !linking.view.isDestroyed) {
      if (href) pm?.setLink(linking.view, href);
      if (apply === 'remove') pm?.removeLink(linking.view);
      linking.view.focus();
    }
    setLinking(undefined);
  };
  const urlId = `field-${path}-link-url`;
  useEffect(() => {
    if (linking) document.getElementById(urlId)?.focus();
  }, [!!linking]);

  return (
    <fieldset class="field blocks" id={`field-${path}`}>
      <legend>
        {name}
        <span class="kind"> (blocks)</span>
      </legend>
      <div class="format-bar" role="toolbar" aria-label={`Text formatting of ${path}`}>
        {FLAGS.map((f) => (
          <button
            type="button"
            class={`format ${f}`}
            disabled={!view}
            aria-pressed={view ? pm!.flagActive(view.state, f) : false}
            aria-keyshortcuts={ariaKeys(FLAG_KEYS[f])}
            // The click must not take the focus, nor the selection, from the text it formats.
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => {
              if (!view) return;
              pm!.syncSelection(view);
              pm!.toggleFlag(view, f);
              view.focus();
            }}
          >
            {FLAG_LABELS[f]}
          </button>
        ))}
        <button
          type="button"
          disabled={!view}
          aria-pressed={view ? !!pm!.linkAt(view.state) : false}
          aria-keyshortcuts={ariaKeys('Mod-k')}
          onMouseDown={(e) => e.preventDefault()}
          onClick={() => view && openLink(view)}
        >
          Link
        </button>
      </div>
      {linking && (
        <div class="link-form">
          <label for={urlId}>Link URL</label>
          <input
            id={urlId}
            type="url"
            value={linking.href}
            aria-invalid={linking.problem ? 'true' : undefined}
            aria-describedby={linking.problem ? `${urlId}-error` : undefined}
            onInput={(e) => setLinking({ ...linking, href: e.currentTarget.value, problem: undefined })}
            onKeyDown={(e) => {
              if (e.key === 'Enter') {
                e.preventDefault();
                closeLink('set');
              } else if (e.key === 'Escape') closeLink();
            }}
          />
          <button type="button" onClick={() => closeLink('set')}>
            Apply link
          </button>
          {linking.existing && (
            <button type="button" onClick={() => closeLink('remove')}>
              Remove link
            </button>
          )}
          <button type="button" onClick={() => closeLink()}>
            Cancel
          </button>
          <FieldError id={`${urlId}-error`} error={linking.problem} />
        </div>
      )}
      <ol class="items">
        {blocks.map((b, i) => {
          // Inside a component, the path tells this field's blocks from the document's own.
          const label = `block ${i + 1}${path === name ? '' : ` (${path})`}`;
          const id = `field-${path}.${i}`;
          const how = editorOf(b);
          return (
            <li>
              {!how ? (
                b.type === 'image' ? (
                  <ImageBlock image={b.image as MediaFile | undefined} />
                ) : (
                  <p>
                    {b.type} block <span class="kind">(kept as it is)</span>
                  </p>
                )
              ) : (
                <>
                  <label for={`${id}-kind`} class="visually-hidden">
                    Kind of {label}
                  </label>
                  <select
                    id={`${id}-kind`}
                    value={kindOf(b)}
                    onChange={(e) => set(i, convert(b, e.currentTarget.value))}
                  >
                    {KINDS.map(([k, t]) => (
                      <option value={k}>{t}</option>
                    ))}
                  </select>
                  {how === 'code' ? (
                    <>
                      <label for={id} class="visually-hidden">
                        Text of {label}
                      </label>
                      <textarea
                        id={id}
                        rows={4}
                        class="code"
                        value={textOf(b.children)}
                        onInput={(e) => set(i, { ...b, children: [text(e.currentTarget.value)] })}
                      />
                    </>
                  ) : !pm ? (
                    <p class={unloaded ? 'field-error' : 'kind'}>
                      {unloaded ? 'The text editor could not be loaded: reload the page.' : 'Loading the editor…'}
                    </p>
                  ) : (
                    <InlineText
                      editing={pm}
                      key={how}
                      label={`Text of ${label}`}
                      ordered={b.type === 'list' && b.format === 'ordered'}
                      content={
                        how === 'list'
                          ? { kind: 'list', children: (b.children ?? []) as unknown as ListItem[] }
                          : { kind: 'line', children: (b.children ?? []) as InlineNode[] }
                      }
                      onChange={(children) => set(i, { ...b, children: children as Node[] })}
                      onLink={openLink}
                      onSelect={select}
                    />
                  )}
                </>
              )}
              <div class="item-actions">
                <button type="button" disabled={i === 0} onClick={() => move(i, i - 1)}>
                  Move up<span class="visually-hidden"> {label}</span>
                </button>
                <button type="button" disabled={i === blocks.length - 1} onClick={() => move(i, i + 1)}>
                  Move down<span class="visually-hidden"> {label}</span>
                </button>
                <button type="button" onClick={() => onChange(blocks.filter((_, j) => j !== i))}>
                  Remove<span class="visually-hidden"> {label}</span>
                </button>
              </div>
            </li>
          );
        })}
      </ol>
      <div class="add-zone">
        <label for={`field-${path}-add`}>Block to add</label>
        <select id={`field-${path}-add`} value={kind} onChange={(e) => setKind(e.currentTarget.value)}>
          {KINDS.map(([k, t]) => (
            <option value={k}>{t}</option>
          ))}
          <option value="image">Image</option>
        </select>
        <button
          type="button"
          onClick={() => (kind === 'image' ? setChoosing(true) : onChange([...blocks, emptyBlock(kind)]))}
        >
          Add a block to {name}
        </button>
      </div>
      {choosing && (
        <div class="image-choice">
          <MediaField
            name={`Image to add to ${name}`}
            path={`${path}.new-image`}
            attr={{ type: 'media', allowedTypes: ['images'] }}
            value={[]}
            onChange={(files) => {
              if (!files[0]) return;
              // Strapi's image block holds the file as the upload API answers it.
              onChange([...blocks, { type: 'image', image: files[0], children: [text('')] }]);
              setChoosing(false);
            }}
          />
          <button type="button" onClick={() => setChoosing(false)}>
            Cancel the image
          </button>
        </div>
      )}
      <FieldError id={`field-${path}-error`} error={error} />
    </fieldset>
  );
}
