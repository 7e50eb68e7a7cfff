import { useEffect, useState } from 'preact/hooks';

/**
 * Markdown rendered as the site would show it, sanitised (DOMPurify) since the text may come from anyone who can
 * edit. The renderer loads on first use, so it stays out of the first screen's bundle.
 */
export function MarkdownPreview({ text, label }: { text: string; label: string }) {
  const [html, setHtml] = useState<string | undefined>();
  useEffect(() => {
    let live = true;
    void Promise.all([import('marked'), import('dompurify')]).then(async ([{ marked }, { default: purify }]) => {
      const rendered = await marked.parse(text, { gfm: true });
      if (live) setHtml(purify.sanitize(rendered));
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
