import { useState } from 'react';
import { api, unwrap } from '../../../api/client';
import { Field } from '../../../components/field';
import { ProblemMessage } from '../../../components/problem-message';
import { Spinner } from '../../../components/spinner';
import { useDocumentTitle } from '../../../components/use-document-title';
import { saveBlob } from '../../../lib/download';
import { useGraph } from '../../../api/pages';
import { exportArchive } from '../api/export';
import { allTags, pagesInSubtree, pagesWithTag, type SelectablePage } from '../../../lib/selection';

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

/** Which pages to export: all, or those of the chosen mode's value. */
interface Choice {
  mode: Mode;
  subtree: string;
  tag: string;
  query: string;
}

/** The chosen pages (undefined: all pages), searching the server for a search. */
function chosenPages(choice: Choice, pages: SelectablePage[]) {
  if (choice.mode === 'subtree') return Promise.resolve(pagesInSubtree(pages, choice.subtree));
  if (choice.mode === 'tag') return Promise.resolve(pagesWithTag(pages, choice.tag));
  if (choice.mode === 'search') return searchAll(choice.query.trim());
  return Promise.resolve(undefined);
}

/** The pages chosen so far, when the console can tell without asking the server. */
function previewPages(choice: Choice, pages: SelectablePage[]) {
  if (choice.mode === 'subtree') return pagesInSubtree(pages, choice.subtree);
  if (choice.mode === 'tag') return pagesWithTag(pages, choice.tag);
  return null;
}

function ChoiceFields({
  choice,
  pages,
  onChange,
}: {
  choice: Choice;
  pages: SelectablePage[];
  onChange: (change: Partial<Choice>) => void;
}) {
  return (
    <>
      <fieldset className="admin__fieldset">
        <legend className="field__label">Pages</legend>
        <div className="checks">
          {MODES.map(([value, label]) => (
            <label key={value} className="check">
              <input
                type="radio"
                name="export-mode"
                value={value}
                checked={choice.mode === value}
                onChange={() => onChange({ mode: value })}
              />
              {label}
            </label>
          ))}
        </div>
      </fieldset>
      {choice.mode === 'subtree' && (
        <Field label="Subtree" hint="A page’s slug: the page and every page below it.">
          <input
            className="input"
            value={choice.subtree}
            onChange={(e) => onChange({ subtree: e.target.value })}
          />
        </Field>
      )}
      {choice.mode === 'tag' && (
        <Field label="Tag">
          <select
            className="input"
            value={choice.tag}
            onChange={(e) => onChange({ tag: e.target.value })}
          >
            <option value="">Choose a tag</option>
            {allTags(pages).map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        </Field>
      )}
      {choice.mode === 'search' && (
        <Field label="Search words" hint="Every page the search finds.">
          <input
            className="input"
            type="search"
            value={choice.query}
            onChange={(e) => onChange({ query: e.target.value })}
          />
        </Field>
      )}
    </>
  );
}

/** "3 pages selected: A, B, C", naming the first five. */
function SelectionCount({ pages }: { pages: SelectablePage[] }) {
  return (
    <p className="admin__count" aria-live="polite">
      {pages.length === 1 ? '1 page' : `${pages.length} pages`} selected
      {pages.length > 0 &&
        `: ${pages
          .slice(0, 5)
          .map((p) => p.title)
          .join(', ')}`}
      {pages.length > 5 && '…'}
    </p>
  );
}

/** Downloads the archive of the chosen pages, saying what it saved or why it could not. */
function useArchiveDownload() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState('');
  const download = async (choose: () => Promise<SelectablePage[] | undefined>) => {
    setBusy(true);
    setError(null);
    setDone('');
    try {
      const chosen = await choose();
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
  return { busy, error, done, download };
}

export function ExportScreen() {
  useDocumentTitle('Export');
  const graph = useGraph();
  const [choice, setChoice] = useState<Choice>({ mode: 'all', subtree: '', tag: '', query: '' });
  const archive = useArchiveDownload();
  const pages = graph.data?.nodes ?? [];
  const preview = previewPages(choice, pages);

  return (
    <section className="screen screen--narrow" aria-labelledby="export-title">
      <h1 id="export-title" className="screen__title">
        Export
      </h1>
      <p className="screen__lead">
        An archive (ZIP) of pages with their metadata, images and attachments, which kb’s Import
        reads back.
      </p>
      <ChoiceFields
        choice={choice}
        pages={pages}
        onChange={(change) => setChoice((c) => ({ ...c, ...change }))}
      />
      {graph.isPending && choice.mode !== 'all' && <Spinner />}
      {preview && <SelectionCount pages={preview} />}
      <div className="admin__buttons">
        <button
          type="button"
          className="button button--primary"
          disabled={archive.busy || (choice.mode === 'search' && !choice.query.trim())}
          onClick={() => void archive.download(() => chosenPages(choice, pages))}
        >
          {archive.busy ? 'Preparing…' : 'Download archive'}
        </button>
        <span role="status" className="admin__status">
          {archive.done}
        </span>
      </div>
      <ProblemMessage error={archive.error} title="Not exported." />
    </section>
  );
}

export default ExportScreen;
