import { useEffect, useRef, useState } from 'react';
import { Link, useLocation, useParams } from 'react-router';
import { isProblem } from '../../../api/problem';
import { ProblemMessage } from '../../../components/problem-message';
import { Spinner } from '../../../components/spinner';
import { useDocumentTitle } from '../../../components/use-document-title';
import { paths, slugFromSplat } from '../../../lib/slugs';
import { canEdit, useCurrentUser } from '../../../api/me';
import { fieldGroup, type PageFields } from '../model/fields';
import { ConflictPanel } from './conflict-panel';
import { DetailsForm } from './details-form';
import { DraftOffer, DraftTooLarge, EditorBar } from './editor-bar';
import { PreviewPane } from './preview-pane';
import { SourcePane } from './source-pane';
import { CollabPresence } from './collab-presence';
import { LiveDraftOffer } from './live-draft-offer';
import { useCollab } from './use-collab';
import { useEditorSession, type EditorSession } from './use-editor-session';
import { NewerRevisionWarning } from '../../../components/live-banners';

const BAR_FIELDS = new Set(['title', 'slug', 'content', 'summary']);

function MissingPage({ slug }: { slug: string }) {
  return (
    <div className="screen screen--narrow">
      <h1 className="screen__title">No page at “{slug}”</h1>
      <Link
        to={`${paths.newPage()}?slug=${encodeURIComponent(slug)}`}
        className="button button--primary"
      >
        Create this page
      </Link>
    </div>
  );
}

/** The folded "Page details" form; it opens by itself when a save is refused over one of them. */
function PageDetails({ session, fields }: { session: EditorSession; fields: PageFields }) {
  const { fieldErrors } = session;
  const [open, setOpen] = useState(false);
  const detailErrors =
    fieldErrors?.errors.some((e) => !BAR_FIELDS.has(fieldGroup(e.field))) ?? false;
  useEffect(() => {
    if (detailErrors) setOpen(true);
  }, [detailErrors]);
  return (
    <details
      className="editor__details"
      open={open}
      onToggle={(e) => setOpen(e.currentTarget.open)}
    >
      <summary>Page details</summary>
      <DetailsForm
        fields={fields}
        change={session.change}
        problems={fieldErrors}
        isNew={session.slug === null}
      />
    </details>
  );
}

/** The page's own variables, as the preview resolves them. */
const variablesOf = (fields: PageFields) =>
  Object.fromEntries(
    fields.variables.filter((r) => r.name.trim()).map((r) => [r.name.trim(), r.value]),
  );

/**
 * What someone who may not edit sees at `/new` or `/edit/…`: what they may do instead, and the
 * way back. They never get an editor that would fail only on Save.
 */
function ReadOnly({ slug }: { slug: string | null }) {
  useDocumentTitle(slug === null ? 'New page' : `Edit ${slug}`);
  return (
    <div className="screen screen--narrow">
      <h1 className="screen__title">
        {slug === null ? 'You cannot create pages' : 'You cannot edit this page'}
      </h1>
      <p className="screen__lead">
        Your account reads pages; editing needs the editor or administrator role. You can read
        {slug === null ? ' every page shared with you' : ' this page'} and search; ask an
        administrator if you should be able to edit.
      </p>
      <div className="not-found__actions">
        {slug !== null && (
          <Link to={paths.page(slug)} className="button button--primary">
            Back to the page
          </Link>
        )}
        <Link to={paths.home()} className="button">
          Go home
        </Link>
      </div>
    </div>
  );
}

/** Ctrl+S (Cmd+S on a Mac) saves, wherever the focus is in the editor, instead of "Save page as". */
function useSaveShortcut(session: EditorSession) {
  const save = useRef(session.save);
  save.current = session.save;
  const blocked = session.saving || !!session.conflict || !!session.offer;
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (!(event.ctrlKey || event.metaKey) || event.altKey || event.key.toLowerCase() !== 's')
        return;
      event.preventDefault();
      if (!blocked) void save.current();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [blocked]);
}

/** One editing session; a new address (another page, "New page here" elsewhere) starts another. */
export function EditorScreen() {
  const splat = useParams()['*'];
  const { search } = useLocation();
  const slug = splat === undefined ? null : slugFromSplat(splat);
  const user = useCurrentUser();
  if (!canEdit(user)) return <ReadOnly slug={slug} />;
  return <Editor key={`${slug ?? ''}?${search}`} slug={slug} />;
}

function Editor({ slug }: { slug: string | null }) {
  const loaded = useEditorSession(slug, slug !== null);
  const user = useCurrentUser();
  const collab = useCollab(slug, user.displayName || user.username);
  const session: EditorSession = collab ? { ...loaded, save: loaded.saveLive } : loaded;
  const { fields, fieldErrors } = session;
  useSaveShortcut(session);
  useDocumentTitle(slug === null ? 'New page' : `Edit ${fields?.title ?? slug}`);

  if (slug !== null && isProblem(session.page.error, 404)) return <MissingPage slug={slug} />;
  if (session.page.error) return <ProblemMessage error={session.page.error} />;
  if (!fields || (collab && !collab.synced)) return <Spinner />;

  return (
    <div className="editor">
      <h1 className="visually-hidden">{slug === null ? 'New page' : `Edit ${fields.title}`}</h1>
      <EditorBar session={session} />
      {slug !== null && session.baseRevision !== undefined && (
        <NewerRevisionWarning slug={slug} baseRevision={session.baseRevision} />
      )}
      {collab ? (
        <LiveDraftOffer session={session} collab={collab} />
      ) : (
        <DraftOffer session={session} />
      )}
      <DraftTooLarge session={session} />
      {session.notice && (
        <p className="notice" role="status">
          {session.notice}
        </p>
      )}
      <ProblemMessage
        error={session.error}
        title={fieldErrors?.errors.length ? 'Not saved.' : undefined}
      />
      <ConflictPanel session={session} />
      {collab && <CollabPresence collab={collab} />}
      <div className="editor__panes">
        <SourcePane
          content={fields.content}
          resetKey={session.resetKey}
          errors={fieldErrors?.errorsFor('content') ?? []}
          onChange={(content) => session.change({ content })}
          collab={collab && collab.synced ? collab : undefined}
        />
        <PreviewPane content={fields.content} variables={variablesOf(fields)} slug={fields.slug} />
      </div>
      <PageDetails session={session} fields={fields} />
    </div>
  );
}

export default EditorScreen;
