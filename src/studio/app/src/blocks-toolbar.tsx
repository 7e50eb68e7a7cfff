import type { EditorView } from 'prosemirror-view';
import { FieldError } from './field-error';
import { FLAG_KEYS, FLAGS, type Flag } from './blocks-format';
import type { Editing } from './inline-host';

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

/** The formatting buttons of a blocks field, for the text last selected in it (`view`). */
export function FormatBar(props: {
  path: string;
  view: EditorView | undefined;
  pm: Editing | undefined;
  onLink(view: EditorView): void;
}) {
  const { path, view, pm } = props;
  return (
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
        onClick={() => view && props.onLink(view)}
      >
        Link
      </button>
    </div>
  );
}

/** A link being set on the selected text: its address, checked as the API checks it. */
export interface Linking {
  view: EditorView;
  href: string;
  existing: boolean;
  problem?: string;
}

/** The form that sets, changes or removes the link of the selected text. */
export function LinkForm(props: {
  urlId: string;
  linking: Linking;
  onInput(linking: Linking): void;
  onClose(apply?: 'set' | 'remove'): void;
}) {
  const { urlId, linking } = props;
  const closeLink = props.onClose;
  return (
    <div class="link-form">
      <label for={urlId}>Link URL</label>
      <input
        id={urlId}
        type="url"
        value={linking.href}
        aria-invalid={linking.problem ? 'true' : undefined}
        aria-describedby={linking.problem ? `${urlId}-error` : undefined}
        onInput={(e) => props.onInput({ ...linking, href: e.currentTarget.value, problem: undefined })}
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
  );
}
