import { useState } from 'preact/hooks';
import type { Attribute } from './model';
import { FieldError } from './field-error';

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

const kindOf = (b: Node) =>
  b.type === 'heading' ? `heading-${b.level ?? 1}` : b.type === 'list' ? `list-${b.format ?? 'unordered'}` : b.type;

/** The plain text of inline nodes. */
const textOf = (nodes: Node[] = []): string =>
  nodes.map((n) => (n.type === 'text' ? (n.text ?? '') : textOf(n.children))).join('');

/** Whether inline nodes carry formatting or links, which editing the block as plain text drops. */
const formatted = (nodes: Node[] = []): boolean =>
  nodes.some(
    (n) => n.type !== 'text' || Object.keys(n).some((k) => k !== 'type' && k !== 'text') || formatted(n.children),
  );

/** A block's text as the textarea shows it: a list has one item a line. */
function blockText(b: Node): string {
  if (b.type === 'list') return (b.children ?? []).map((item) => textOf(item.children)).join('\n');
  return textOf(b.children);
}

/** A block of a kind made from plain text. */
function makeBlock(kind: string, text: string): Node {
  const inline = (t: string): Node[] => [{ type: 'text', text: t }];
  if (kind.startsWith('heading-')) return { type: 'heading', level: Number(kind.slice(8)), children: inline(text) };
  if (kind.startsWith('list-'))
    return {
      type: 'list',
      format: kind.slice(5),
      children: text.split('\n').map((line) => ({ type: 'list-item', children: inline(line) })),
    };
  return { type: kind, children: inline(text) };
}

/**
 * A blocks attribute: its blocks in order, each with its kind and its text (a list, one item a line); blocks can
 * be added, reordered and removed. A block is rewritten only when it is edited, so untouched blocks keep their
 * bold, italics and links; images are kept as they are.
 */
export function BlocksField(props: {
  name: string;
  attr: Attribute;
  value: unknown;
  error?: string;
  onChange(value: Node[]): void;
}) {
  const { name, value, error, onChange } = props;
  const blocks = (Array.isArray(value) ? value : []) as Node[];
  const [kind, setKind] = useState('paragraph');
  const set = (i: number, b: Node) => onChange(blocks.map((x, j) => (j === i ? b : x)));
  const move = (from: number, to: number) => {
    const next = [...blocks];
    next.splice(to, 0, ...next.splice(from, 1));
    onChange(next);
  };
  return (
    <fieldset class="field blocks" id={`field-${name}`}>
      <legend>
        {name}
        <span class="kind"> (blocks)</span>
      </legend>
      <ol class="items">
        {blocks.map((b, i) => {
          const label = `block ${i + 1}`;
          const id = `field-${name}.${i}`;
          return (
            <li>
              {b.type === 'image' ? (
                <p>
                  Image {String((b.image as { name?: string } | undefined)?.name ?? '')}{' '}
                  <span class="kind">(kept as it is)</span>
                </p>
              ) : (
                <>
                  <label for={`${id}-kind`} class="visually-hidden">
                    Kind of {label}
                  </label>
                  <select
                    id={`${id}-kind`}
                    value={kindOf(b)}
                    onChange={(e) => set(i, makeBlock(e.currentTarget.value, blockText(b)))}
                  >
                    {KINDS.map(([k, text]) => (
                      <option value={k}>{text}</option>
                    ))}
                  </select>
                  <label for={id} class="visually-hidden">
                    Text of {label}
                  </label>
                  <textarea
                    id={id}
                    rows={b.type === 'code' || b.type === 'list' ? 4 : 2}
                    class={b.type === 'code' ? 'code' : undefined}
                    value={blockText(b)}
                    onInput={(e) => set(i, makeBlock(kindOf(b), e.currentTarget.value))}
                  />
                  {formatted(b.children) && (
                    <p class="kind">This block has formatting or links: editing its text here removes them.</p>
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
        <label for={`field-${name}-add`}>Block to add</label>
        <select id={`field-${name}-add`} value={kind} onChange={(e) => setKind(e.currentTarget.value)}>
          {KINDS.map(([k, text]) => (
            <option value={k}>{text}</option>
          ))}
        </select>
        <button type="button" onClick={() => onChange([...blocks, makeBlock(kind, '')])}>
          Add a block to {name}
        </button>
      </div>
      <FieldError id={`field-${name}-error`} error={error} />
    </fieldset>
  );
}
