import { ProblemMessage } from '../../../components/problem-message';
import { useDebounced } from '../../../components/use-debounced';
import { isPlausibleSlug } from '../model/slug-proposal';
import { PageHtml } from '../../../components/page-html';
import { usePreview } from '../api/editor';

/** The server's rendering of the unsaved text, a moment after typing stops. */
export function PreviewPane({
  content,
  variables,
  slug,
}: {
  content: string;
  variables: Record<string, string>;
  slug: string;
}) {
  const text = useDebounced(content, 400);
  const vars = useDebounced(variables, 400);
  // Relative links resolve against the slug once it is one; an unfinished slug is left out.
  const preview = usePreview(text, vars, isPlausibleSlug(slug) ? slug : '');
  return (
    <section className="preview" aria-label="Preview" aria-busy={preview.isFetching}>
      {content.trim() === '' ? (
        <p className="preview__status">The preview of your text appears here.</p>
      ) : preview.isError && !preview.data ? (
        <ProblemMessage error={preview.error} title="The preview could not be rendered." />
      ) : preview.data ? (
        <PageHtml html={preview.data.html} />
      ) : (
        <p className="preview__status">Rendering…</p>
      )}
    </section>
  );
}
