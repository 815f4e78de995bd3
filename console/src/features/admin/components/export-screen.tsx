import { useState } from 'react';
import { api, unwrap } from '../../../api/client';
import { Field } from '../../../components/field';
import { ProblemMessage } from '../../../components/problem-message';
import { Spinner } from '../../../components/spinner';
import { useDocumentTitle } from '../../../components/use-document-title';
import { saveBlob } from '../../../lib/download';
import { exportArchive, useGraph } from '../api/admin';
import { allTags, pagesInSubtree, pagesWithTag, type SelectablePage } from '../model/selection';

type Mode = 'all' | 'subtree' | 'tag' | 'search';
const MODES: [Mode, string][] = [
  ['all', 'All pages'],
  ['subtree', 'A subtree'],
  ['tag', 'A tag'],
  ['search', 'A search'],
];
/** The API accepts at most this many slugs; more means "export all" or a narrower choice. */
const MAX_SLUGS = 10_000;

/** Every page a search finds (following its cursor), as the selection's pages. */
async function searchAll(q: string): Promise<SelectablePage[]> {
  const found: SelectablePage[] = [];
  let cursor: string | undefined;
  do {
    const page = await unwrap(
      api.GET('/api/search', { params: { query: { q, cursor, limit: 100 } } }),
    );
    found.push(...page.items);
    cursor = page.nextCursor ?? undefined;
  } while (cursor && found.length < MAX_SLUGS);
  return found;
}

export function ExportScreen() {
  useDocumentTitle('Export');
  const graph = useGraph();
  const [mode, setMode] = useState<Mode>('all');
  const [subtree, setSubtree] = useState('');
  const [tag, setTag] = useState('');
  const [query, setQuery] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState('');
  const pages = graph.data?.nodes ?? [];

  const selected = (): Promise<SelectablePage[] | undefined> => {
    if (mode === 'subtree') return Promise.resolve(pagesInSubtree(pages, subtree));
    if (mode === 'tag') return Promise.resolve(pagesWithTag(pages, tag));
    if (mode === 'search') return searchAll(query.trim());
    return Promise.resolve(undefined);
  };
  const preview =
    mode === 'subtree'
      ? pagesInSubtree(pages, subtree)
      : mode === 'tag'
        ? pagesWithTag(pages, tag)
        : null;

  const download = async () => {
    setBusy(true);
    setError(null);
    setDone('');
    try {
      const chosen = await selected();
      if (chosen && chosen.length === 0) throw new Error('No page matches this choice.');
      const file = await exportArchive(chosen?.map((p) => p.slug));
      saveBlob(file.blob, file.filename);
      setDone(`Downloaded ${file.filename} (${chosen ? chosen.length : 'all'} pages).`);
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="screen screen--narrow" aria-labelledby="export-title">
      <h1 id="export-title" className="screen__title">
        Export
      </h1>
      <p className="screen__lead">
        An archive (ZIP) of pages with their metadata, images and attachments, which kb’s Import
        reads back.
      </p>
      <fieldset className="admin__fieldset">
        <legend className="field__label">Pages</legend>
        <div className="checks">
          {MODES.map(([value, label]) => (
            <label key={value} className="check">
              <input
                type="radio"
                name="export-mode"
                value={value}
                checked={mode === value}
                onChange={() => setMode(value)}
              />
              {label}
            </label>
          ))}
        </div>
      </fieldset>
      {mode === 'subtree' && (
        <Field label="Subtree" hint="A page’s slug: the page and every page below it.">
          <input className="input" value={subtree} onChange={(e) => setSubtree(e.target.value)} />
        </Field>
      )}
      {mode === 'tag' && (
        <Field label="Tag">
          <select className="input" value={tag} onChange={(e) => setTag(e.target.value)}>
            <option value="">Choose a tag</option>
            {allTags(pages).map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        </Field>
      )}
      {mode === 'search' && (
        <Field label="Search words" hint="Every page the search finds.">
          <input
            className="input"
            type="search"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
          />
        </Field>
      )}
      {graph.isPending && mode !== 'all' && <Spinner />}
      {preview && (
        <p className="admin__count" aria-live="polite">
          {preview.length === 1 ? '1 page' : `${preview.length} pages`} selected
          {preview.length > 0 &&
            `: ${preview
              .slice(0, 5)
              .map((p) => p.title)
              .join(', ')}`}
          {preview.length > 5 && '…'}
        </p>
      )}
      <div className="admin__buttons">
        <button
          type="button"
          className="button button--primary"
          disabled={busy || (mode === 'search' && !query.trim())}
          onClick={() => void download()}
        >
          {busy ? 'Preparing…' : 'Download archive'}
        </button>
        <span role="status" className="admin__status">
          {done}
        </span>
      </div>
      <ProblemMessage error={error} title="Not exported." />
    </section>
  );
}

export default ExportScreen;
