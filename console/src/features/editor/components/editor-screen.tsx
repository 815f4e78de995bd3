import { useEffect, useRef, useState } from 'react';
import { Link, useParams } from 'react-router';
import { isProblem } from '../../../api/problem';
import { Field } from '../../../components/field';
import { ProblemMessage } from '../../../components/problem-message';
import { Spinner } from '../../../components/spinner';
import { formatRelative } from '../../../lib/format';
import { paths, slugFromSplat } from '../../../lib/slugs';
import { markdownFor, uploadFile } from '../api/editor';
import { fieldGroup } from '../model/fields';
import { ConflictPanel } from './conflict-panel';
import { DetailsForm } from './details-form';
import { MarkdownEditor, type MarkdownEditorHandle } from './markdown-editor';
import { PreviewPane } from './preview-pane';
import { useEditorSession, type EditorSession } from './use-editor-session';
import { useDocumentTitle } from '../../../components/use-document-title';

const BAR_FIELDS = new Set(['title', 'slug', 'content']);

function DraftStatusText({ session }: { session: EditorSession }) {
  const { status, savedAt, dirty } = session.autosave;
  let text = '';
  if (session.offer) text = 'Choose what to do with your draft.';
  else if (status === 'saving') text = 'Saving draft…';
  else if (status === 'failed') text = 'The draft could not be saved; keep this tab open.';
  else if (dirty) text = 'Unsaved changes';
  else if (savedAt) text = `Draft saved ${formatRelative(savedAt.toISOString())}`;
  return (
    <p className="editor__status" role="status">
      {text}
    </p>
  );
}

function useUploads(editor: React.RefObject<MarkdownEditorHandle | null>) {
  const [uploading, setUploading] = useState(0);
  const [error, setError] = useState<unknown>(null);
  const upload = async (files: File[], at?: number) => {
    setError(null);
    setUploading((n) => n + files.length);
    for (const file of files) {
      try {
        const result = await uploadFile(file);
        editor.current?.insert(`${markdownFor(result)}\n`, at);
      } catch (e) {
        setError(e);
      } finally {
        setUploading((n) => n - 1);
      }
    }
  };
  return { uploading, error, upload };
}

export function EditorScreen() {
  const splat = useParams()['*'];
  const slug = splat === undefined ? null : slugFromSplat(splat);
  const session = useEditorSession(slug);
  const editor = useRef<MarkdownEditorHandle | null>(null);
  const uploads = useUploads(editor);
  const [detailsOpen, setDetailsOpen] = useState(false);
  const { fields, fieldErrors } = session;
  useDocumentTitle(slug === null ? 'New page' : `Edit ${fields?.title ?? slug}`);

  const detailErrors =
    fieldErrors?.errors.some((e) => !BAR_FIELDS.has(fieldGroup(e.field))) ?? false;
  useEffect(() => {
    if (detailErrors) setDetailsOpen(true);
  }, [detailErrors]);

  if (slug !== null && isProblem(session.page.error, 404)) {
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
  if (session.page.error) return <ProblemMessage error={session.page.error} />;
  if (!fields) return <Spinner />;

  const errors = (field: string) => fieldErrors?.errorsFor(field) ?? [];
  const isNew = slug === null;
  const variables = Object.fromEntries(
    fields.variables.filter((r) => r.name.trim()).map((r) => [r.name.trim(), r.value]),
  );

  return (
    <div className="editor">
      <h1 className="visually-hidden">{isNew ? 'New page' : `Edit ${fields.title}`}</h1>
      <div className="editor__bar">
        <Field label="Title" errors={errors('title')} className="editor__title">
          <input
            className="input input--title"
            placeholder="Untitled"
            value={fields.title}
            onChange={(e) => session.change({ title: e.target.value })}
          />
        </Field>
        {isNew && (
          <Field
            label="Slug"
            hint="Its address: segments such as guides/setup."
            errors={errors('slug')}
            className="editor__slug"
          >
            <input
              className="input"
              placeholder="guides/my-page"
              value={fields.slug}
              onChange={(e) => session.change({ slug: e.target.value })}
            />
          </Field>
        )}
        <div className="editor__actions">
          <DraftStatusText session={session} />
          <Link to={isNew ? '/' : paths.page(slug)} className="button button--quiet">
            Cancel
          </Link>
          <button
            type="button"
            className="button button--primary"
            onClick={session.save}
            disabled={session.saving || !!session.conflict || !!session.offer}
          >
            {session.saving ? 'Saving…' : 'Save'}
          </button>
        </div>
      </div>
      {session.offer && (
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
      )}
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
      <div className="editor__panes">
        <div className="editor__source">
          <div className="editor__toolbar">
            <label className="button button--small file-button">
              Attach file
              <input
                type="file"
                multiple
                className="visually-hidden"
                onChange={(e) => {
                  const files = Array.from(e.target.files ?? []);
                  e.target.value = '';
                  if (files.length) void uploads.upload(files);
                }}
              />
            </label>
            <span className="editor__hint" role="status">
              {uploads.uploading > 0
                ? `Uploading ${uploads.uploading} file${uploads.uploading > 1 ? 's' : ''}…`
                : 'Paste or drop images and files into the text.'}
            </span>
          </div>
          <ProblemMessage error={uploads.error} title="Upload failed." />
          <MarkdownEditor
            value={fields.content}
            resetKey={session.resetKey}
            onChange={(content) => session.change({ content })}
            onFiles={(files, at) => void uploads.upload(files, at)}
            handle={(h) => (editor.current = h)}
          />
          {errors('content').map((e) => (
            <p key={e.code} className="field__errors">
              {e.message}
            </p>
          ))}
        </div>
        <PreviewPane content={fields.content} variables={variables} slug={fields.slug} />
      </div>
      <details
        className="editor__details"
        open={detailsOpen}
        onToggle={(e) => setDetailsOpen(e.currentTarget.open)}
      >
        <summary>Page details</summary>
        <DetailsForm fields={fields} change={session.change} problems={fieldErrors} isNew={isNew} />
      </details>
    </div>
  );
}

export default EditorScreen;
