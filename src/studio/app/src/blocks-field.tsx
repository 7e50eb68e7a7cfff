import { useEffect, useRef, useState } from 'preact/hooks';
import type { EditorView } from 'prosemirror-view';
import type { Attribute } from './model';
import { FieldError } from './field-error';
import { hintOf, labelOf } from './labels';
import { MediaField, type MediaFile } from './media-field';
import type { InlineNode, ListItem } from './blocks-format';
import {
  convert,
  editorOf,
  emptyBlock,
  KINDS,
  kindOf,
  LINK_RULE,
  linkUrl,
  text,
  textOf,
  type Node,
} from './blocks-edit';
import { FormatBar, LinkForm, type Linking } from './blocks-toolbar';
import { editing, InlineText, loadEditing } from './inline-host';

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
  const label = labelOf(name, props.attr);
  const blocks = (Array.isArray(value) ? value : []) as Node[];
  const [kind, setKind] = useState('paragraph');
  /** An image block is added once its image is chosen (the API takes no image block without one). */
  const [choosing, setChoosing] = useState(false);
  const active = useRef<EditorView | undefined>(undefined);
  const [, redraw] = useState(0);
  const [linking, setLinking] = useState<Linking | undefined>();
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
    <fieldset
      class="field blocks"
      id={`field-${path}`}
      aria-describedby={`field-${path}-hint${error ? ` field-${path}-error` : ''}`}
    >
      <legend>
        {label}
        {props.attr.required && <span aria-hidden="true"> *</span>}
      </legend>
      <p class="hint" id={`field-${path}-hint`}>
        {hintOf(props.attr)}
      </p>
      <FormatBar path={path} view={view} pm={pm} onLink={openLink} />
      {linking && <LinkForm urlId={urlId} linking={linking} onInput={setLinking} onClose={closeLink} />}
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
          Add a block to {label}
        </button>
      </div>
      {choosing && (
        <div class="image-choice">
          <MediaField
            name={`Image to add to ${label}`}
            label={`Image to add to ${label}`}
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
