import { useRef, useState, type RefObject } from 'react';
import type { FieldError } from '../../../api/problem';
import { ProblemMessage } from '../../../components/problem-message';
import { markdownFor, uploadFile } from '../api/editor';
import { FormatToolbar } from './format-toolbar';
import { MarkdownEditor, type MarkdownEditorHandle } from './markdown-editor';
import type { CollabSession } from './use-collab';

/** Uploads files one by one and inserts each one's Markdown into the text (at `at` or the cursor). */
function useUploads(editor: RefObject<MarkdownEditorHandle | null>) {
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

/** The Markdown source: the Attach file button, the upload status and the text editor. */
export function SourcePane({
  content,
  resetKey,
  errors,
  onChange,
  collab,
  attach = true,
}: {
  content: string;
  resetKey: number;
  errors: FieldError[];
  onChange: (content: string) => void;
  collab?: CollabSession;
  /** Offer Attach file (uploads are for editors). */
  attach?: boolean;
}) {
  const editor = useRef<MarkdownEditorHandle | null>(null);
  const uploads = useUploads(editor);
  return (
    <div className="editor__source">
      <FormatToolbar editor={editor} onImages={(files) => void uploads.upload(files)} />
      {attach && (
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
      )}
      <ProblemMessage error={uploads.error} title="Upload failed." />
      <MarkdownEditor
        value={content}
        resetKey={resetKey}
        onChange={onChange}
        onFiles={(files, at) => void uploads.upload(files, at)}
        handle={(h) => (editor.current = h)}
        collab={collab}
      />
      {errors.map((e) => (
        <p key={e.code} className="field__errors">
          {e.message}
        </p>
      ))}
    </div>
  );
}
