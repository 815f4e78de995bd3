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
 * Someone who may not save (a reader) edits all the same and sends the result as a change
 * request: said once above the editor, with no Save, no drafts and no live session.
 */
function ProposeOnlyNotice({ slug }: { slug: string | null }) {
  return (
    <p className="notice" role="note">
      {slug === null
        ? 'You cannot create pages directly: "Propose changes" sends the new page for review.'
        : 'You cannot save this page directly: "Propose changes" sends your edit to an editor for review.'}
    </p>
  );
}

/** Editing the proposal of change request #N: what Propose changes does, and the merge. */
function ProposalNotice({ requestId, session }: { requestId: number; session: EditorSession }) {
  const { conflicts, error } = session.proposal;
  if (error) return <ProblemMessage error={error} />;
  return (
    <div className="notice" role="note">
      <p>
        You are editing the proposal of{' '}
        <Link to={paths.changeRequest(requestId)}>change request #{requestId}</Link>, on the page as
        it is now: "Propose changes" updates the request (earlier approvals lapse).
      </p>
      {conflicts > 0 && (
        <p>
          {conflicts === 1 ? 'One place' : `${conflicts} places`} where the page changed since the
          proposal and the proposal changes it too {conflicts === 1 ? 'is' : 'are'} marked in the
          text (&lt;&lt;&lt;&lt;&lt;&lt;&lt; mine … &gt;&gt;&gt;&gt;&gt;&gt;&gt; theirs, mine being
          the proposal): keep what should stay, then propose.
        </p>
      )}
    </div>
  );
}

/** Where a proposal's preview would be: the preview is rendered for editors only. */
function NoPreview() {
  return (
    <section className="preview" aria-label="Preview">
      <p className="preview__status">
        The preview is for editors. After you propose, the change request shows your edit as a diff
        beside the page as it is.
      </p>
    </section>
  );
}

/** Ctrl+S (Cmd+S on a Mac) saves, wherever the focus is in the editor, instead of "Save page as". */
function useSaveShortcut(session: EditorSession) {
  const save = useRef(session.save);
  save.current = session.save;
  const blocked = session.proposeOnly || session.saving || !!session.conflict || !!session.offer;
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
  const request = new URLSearchParams(search).get('changeRequest');
  const requestId = slug !== null && request && /^\d+$/.test(request) ? Number(request) : null;
  // Editing a change request's proposal only ever updates the request.
  return (
    <Editor
      key={`${slug ?? ''}?${search}`}
      slug={slug}
      proposeOnly={!canEdit(user) || requestId !== null}
      requestId={requestId}
    />
  );
}

function Editor({
  slug,
  proposeOnly,
  requestId,
}: {
  slug: string | null;
  proposeOnly: boolean;
  requestId: number | null;
}) {
  const loaded = useEditorSession(slug, !proposeOnly && slug !== null, proposeOnly, requestId);
  const user = useCurrentUser();
  const collab = useCollab(proposeOnly ? null : slug, user.displayName || user.username);
  // In a live session the shared text is written as a revision when the last editor leaves:
  // a proposal takes this person's edits back out of it, so they go live only through review.
  const session: EditorSession = collab
    ? {
        ...loaded,
        save: loaded.saveLive,
        propose: () =>
          loaded.propose(() => {
            collab.undoManager.stopCapturing();
            while (collab.undoManager.undoStack.length > 0) collab.undoManager.undo();
          }),
      }
    : loaded;
  const { fields, fieldErrors } = session;
  useSaveShortcut(session);
  useDocumentTitle(
    slug === null
      ? 'New page'
      : `${proposeOnly ? 'Propose changes to' : 'Edit'} ${fields?.title ?? slug}`,
  );

  if (slug !== null && isProblem(session.page.error, 404)) return <MissingPage slug={slug} />;
  if (session.page.error) return <ProblemMessage error={session.page.error} />;
  if (!fields || (collab && !collab.synced)) return <Spinner />;

  return (
    <div className="editor">
      <h1 className="visually-hidden">{slug === null ? 'New page' : `Edit ${fields.title}`}</h1>
      {requestId !== null ? (
        <ProposalNotice requestId={requestId} session={session} />
      ) : (
        proposeOnly && <ProposeOnlyNotice slug={slug} />
      )}
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
          attach={canEdit(user)}
        />
        {!canEdit(user) ? (
          <NoPreview />
        ) : (
          <PreviewPane
            content={fields.content}
            variables={variablesOf(fields)}
            slug={fields.slug}
          />
        )}
      </div>
      {!proposeOnly && <PageDetails session={session} fields={fields} />}
    </div>
  );
}

export default EditorScreen;
