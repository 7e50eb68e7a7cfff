import { useEffect, useState } from 'preact/hooks';
import type { DOMPurify } from 'dompurify';

/**
 * What a preview may not hold, beyond what DOMPurify drops by itself (scripts, handlers): forms and their fields
 * (a form in the editor's page could ask for a password and post it elsewhere), styles (which can load from
 * anywhere), and the attributes that make a request on their own.
 */
const FORBID_TAGS = ['form', 'input', 'button', 'textarea', 'select', 'option', 'optgroup', 'fieldset', 'style'];
const FORBID_ATTR = ['style', 'action', 'formaction', 'srcset', 'ping', 'poster', 'background'];
const MEDIA = new Set(['IMG', 'VIDEO', 'AUDIO', 'SOURCE', 'TRACK']);

/** Files of this server (`/uploads/…`, never `//host/…`) and inline data, which load from no other site. */
const ownSource = (src: string) => /^\/(?![/\\])/.test(src) || /^(?:data|blob):/i.test(src);

let configured: DOMPurify | undefined;

/** DOMPurify with the preview's rules: a remote image or video keeps its text, not its address. */
function previewPurifier(purify: DOMPurify): DOMPurify {
  if (configured) return configured;
  purify.addHook('afterSanitizeAttributes', (node) => {
    if (!MEDIA.has(node.tagName)) return;
    const src = node.getAttribute('src');
    if (src !== null && !ownSource(src.trim())) {
      node.removeAttribute('src');
      node.setAttribute('title', `Not loaded in the preview: ${src}`);
    }
  });
  return (configured = purify);
}

/**
 * Markdown rendered as the site would show it, sanitised (DOMPurify) since the text may come from anyone who can
 * edit: no scripts, no forms, nothing loaded from another site. The renderer loads on first use, so it stays out
 * of the first screen's bundle.
 */
export function MarkdownPreview({ text, label }: { text: string; label: string }) {
  const [html, setHtml] = useState<string | undefined>();
  useEffect(() => {
    let live = true;
    void Promise.all([import('marked'), import('dompurify')]).then(async ([{ marked }, { default: purify }]) => {
      const rendered = await marked.parse(text, { gfm: true });
      if (live) setHtml(previewPurifier(purify).sanitize(rendered, { FORBID_TAGS, FORBID_ATTR }));
    });
    return () => {
      live = false;
    };
  }, [text]);
  return (
    <div class="preview" role="region" aria-label={label}>
      {html === undefined ? <p>Rendering…</p> : <div dangerouslySetInnerHTML={{ __html: html }} />}
    </div>
  );
}
