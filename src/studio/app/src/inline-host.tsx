import { useEffect, useRef } from 'preact/hooks';
import type { EditorView } from 'prosemirror-view';
import type { Content, InlineNode, ListItem } from './blocks-format';

export type Editing = typeof import('./inline-text');
/** The ProseMirror editor, loaded with the first blocks field shown (it is most of the Studio's code). */
export let editing: Editing | undefined;
export const loadEditing = () => import('./inline-text').then((m) => (editing = m));

/**
 * A ProseMirror view over one block's text. Its content is read again only when the block changes from outside
 * (a reorder, a change of kind, a reload), never from its own edits, so typing is never interrupted.
 */
export function InlineText(props: {
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
