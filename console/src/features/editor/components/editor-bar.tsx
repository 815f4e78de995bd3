import { useRef } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Field } from '../../../components/field';
import { formatRelative } from '../../../lib/format';
import { paths } from '../../../lib/slugs';
import { proposedSlug, typedSlug } from '../model/slug-proposal';
import type { EditorSession } from './use-editor-session';

function DraftStatusText({ session }: { session: EditorSession }) {
  const { status, savedAt, dirty } = session.autosave;
  let text = '';
  if (session.offer) text = 'Choose what to do with your draft.';
  else if (status === 'saving') text = 'Saving draft…';
  else if (status === 'failed') text = 'The draft could not be saved; keep this tab open.';
  else if (status === 'too_large' && session.autosave.dirty) text = 'Draft not saved: too large';
  else if (dirty) text = 'Unsaved changes';
  else if (savedAt) text = `Draft saved ${formatRelative(savedAt.toISOString())}`;
  return (
    <p className="editor__status" role="status">
      {text}
    </p>
  );
}

/**
 * A new page's slug follows its title (under the folder it was started from, `?parent=`) until
 * the person edits the slug themselves; emptying the slug hands it back to the title.
 */
function useSlugProposal(session: EditorSession) {
  const [params] = useSearchParams();
  const folder = params.get('parent') ?? '';
  const edited = useRef(params.has('slug'));
  return {
    title(title: string) {
      if (session.slug !== null || edited.current) session.change({ title });
      else session.change({ title, slug: proposedSlug(folder, title) });
    },
    slug(value: string) {
      const slug = typedSlug(value);
      edited.current = slug !== '' && slug !== proposedSlug(folder, '');
      session.change({ slug });
    },
  };
}

/**
 * The editor's top bar: title (and slug, for a new page), the change summary, the reviewers a
 * proposal asks, the draft status, Cancel, Propose changes and Save (not for someone who may
 * only propose).
 */
export function EditorBar({ session }: { session: EditorSession }) {
  const { slug, fields, fieldErrors } = session;
  const proposal = useSlugProposal(session);
  if (!fields) return null;
  const errors = (field: string) => fieldErrors?.errorsFor(field) ?? [];
  return (
    <div className="editor__bar">
      <Field label="Title" errors={errors('title')} className="editor__title">
        <input
          className="input input--title"
          placeholder="Untitled"
          value={fields.title}
          onChange={(e) => proposal.title(e.target.value)}
        />
      </Field>
      {slug === null && (
        <Field
          label="Slug"
          hint="Its address, made from the title: segments such as guides/setup."
          errors={errors('slug')}
          className="editor__slug"
        >
          <input
            className="input"
            placeholder="guides/my-page"
            value={fields.slug}
            onChange={(e) => proposal.slug(e.target.value)}
          />
        </Field>
      )}
      <Field label="Summary" errors={errors('summary')} className="editor__summary">
        <input
          className="input"
          placeholder="What changed (optional)"
          maxLength={500}
          value={fields.summary ?? ''}
          onChange={(e) => session.change({ summary: e.target.value })}
        />
      </Field>
      <Field
        label="Reviewers"
        errors={session.fieldErrors?.errors.filter((e) => e.field.startsWith('reviewers')) ?? []}
        className="editor__reviewers"
      >
        <input
          className="input"
          placeholder={session.proposeOnly ? 'Usernames (optional)' : 'For Propose changes'}
          autoComplete="off"
          value={session.reviewers}
          onChange={(e) => session.setReviewers(e.target.value)}
        />
      </Field>
      <div className="editor__actions">
        {!session.proposeOnly && <DraftStatusText session={session} />}
        <Link to={slug === null ? '/' : paths.page(slug)} className="button button--quiet">
          Cancel
        </Link>
        <button
          type="button"
          className={session.proposeOnly ? 'button button--primary' : 'button'}
          onClick={() => void session.propose()}
          disabled={session.saving || !!session.offer}
          title="Send the change for review instead of saving it"
        >
          Propose changes
        </button>
        {!session.proposeOnly && (
          <button
            type="button"
            className="button button--primary"
            onClick={session.save}
            disabled={session.saving || !!session.conflict || !!session.offer}
          >
            {session.saving ? 'Saving…' : 'Save'}
          </button>
        )}
      </div>
    </div>
  );
}

/** An older draft than the page: Resume it or Discard it before editing goes on. */
export function DraftOffer({ session }: { session: EditorSession }) {
  if (!session.offer) return null;
  return (
    <div className="draft-notice" role="alert">
      <p>
        You have an unsaved draft of this page from {formatRelative(session.offer.updatedAt)}.
        Resume it, or discard it and start from the saved page.
      </p>
      <div className="draft-notice__actions">
        <button
          type="button"
          className="button button--primary button--small"
          onClick={session.resume}
        >
          Resume draft
        </button>
        <button type="button" className="button button--small" onClick={session.discardOffer}>
          Discard draft
        </button>
      </div>
    </div>
  );
}

/** Why the draft is not kept (413), in words, until the text changes and fits again. */
export function DraftTooLarge({ session }: { session: EditorSession }) {
  const { status, problem, dirty } = session.autosave;
  if (status !== 'too_large' || !dirty || !problem) return null;
  return (
    <p className="notice notice--warning" role="alert">
      {problem} Shorten the text to keep a draft; saving the page would be refused too.
    </p>
  );
}
