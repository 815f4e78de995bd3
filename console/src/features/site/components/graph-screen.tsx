import { useMemo, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { Field } from '../../../components/field';
import { ProblemMessage } from '../../../components/problem-message';
import { Spinner } from '../../../components/spinner';
import { useDocumentTitle } from '../../../components/use-document-title';
import { useMediaQuery } from '../../../components/use-media-query';
import { paths } from '../../../lib/slugs';
import { useGraph } from '../../../api/pages';
import { allTags, pagesInSubtree, pagesWithTag } from '../../../lib/selection';
import { GraphView } from './graph-view';

export function GraphScreen() {
  useDocumentTitle('Knowledge graph');
  const graph = useGraph();
  const navigate = useNavigate();
  const [tag, setTag] = useState('');
  const [subtree, setSubtree] = useState('');
  const nodes = graph.data?.nodes;
  // On a phone the list comes first, open: a picture of 390 px is for looking, not for finding.
  const phone = useMediaQuery('(max-width: 700px)');

  const shown = useMemo(() => {
    if (!graph.data) return null;
    let selected = pagesInSubtree(graph.data.nodes, subtree);
    if (tag) selected = pagesWithTag(selected, tag);
    return { nodes: selected, edges: graph.data.edges };
  }, [graph.data, tag, subtree]);
  const tags = useMemo(() => allTags(nodes ?? []), [nodes]);

  return (
    <section className="screen screen--wide" aria-labelledby="graph-title">
      <h1 id="graph-title" className="screen__title">
        Graph
      </h1>
      <p className="screen__lead">
        Pages and the links between them. Drag to pan, scroll, pinch or use the zoom buttons, click
        a page to open it.
      </p>
      <div className="graph__filters">
        <Field label="Tag">
          <select className="input" value={tag} onChange={(e) => setTag(e.target.value)}>
            <option value="">Every tag</option>
            {tags.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Subtree" hint="A page’s slug: it and the pages below it.">
          <input className="input" value={subtree} onChange={(e) => setSubtree(e.target.value)} />
        </Field>
      </div>
      <ProblemMessage error={graph.error} />
      {graph.isPending && <Spinner />}
      {shown && (
        <>
          <p className="admin__count" aria-live="polite">
            {shown.nodes.length === 1 ? '1 page' : `${shown.nodes.length} pages`}
          </p>
          <div className="graph__views">
            <GraphView graph={shown} onOpen={(slug) => void navigate(paths.page(slug))} />
            <details className="graph__list" open={phone || undefined}>
              <summary>The pages in the picture, as a list</summary>
              <ul>
                {shown.nodes.map((n) => (
                  <li key={n.slug}>
                    <Link to={paths.page(n.slug)}>{n.title}</Link>
                  </li>
                ))}
              </ul>
            </details>
          </div>
        </>
      )}
    </section>
  );
}

export default GraphScreen;
