import { useRef, useState, type FormEvent } from 'react';
import { ApiProblem } from '../../../api/problem';
import { Dialog } from '../../../components/dialog';
import { Field } from '../../../components/field';
import { ProblemMessage } from '../../../components/problem-message';
import { Spinner } from '../../../components/spinner';
import { saveBlob } from '../../../lib/download';
import { downloadPdf, previewPrint, usePrintVariables } from '../api/print';

interface Props {
  slug: string;
  title: string;
  onClose: () => void;
}

type Busy = 'preview' | 'pdf' | 'print' | null;

/**
 * The print dialog of the contract: the page's variables with their saved values, changeable
 * for this output only. Closing it unmounts it, so the overrides are gone; nothing is stored.
 * The preview is the server's print document in a sandboxed frame that runs no script.
 */
export default function PrintDialog({ slug, title, onClose }: Props) {
  const variables = usePrintVariables(slug);
  const [values, setValues] = useState<Record<string, string>>({});
  const [document, setDocument] = useState<{ html: string; key: string } | null>(null);
  const [busy, setBusy] = useState<Busy>(null);
  const [error, setError] = useState<unknown>(null);
  const frame = useRef<HTMLIFrameElement>(null);
  const printWhenLoaded = useRef(false);

  const saved = Object.fromEntries((variables.data?.variables ?? []).map((v) => [v.name, v.value]));
  /** Only the changed values are overrides. */
  const overrides = Object.fromEntries(
    Object.entries(values).filter(([name, value]) => name in saved && value !== saved[name]),
  );
  const key = JSON.stringify(overrides);
  const problems = error instanceof ApiProblem ? error : null;

  const run = async <T,>(kind: Busy, task: () => Promise<T>): Promise<T | null> => {
    setBusy(kind);
    setError(null);
    try {
      return await task();
    } catch (e) {
      setError(e);
      return null;
    } finally {
      setBusy(null);
    }
  };

  const preview = () =>
    run('preview', async () => {
      const result = await previewPrint(slug, overrides);
      setDocument({ html: result.document, key });
      return result.document;
    });

  const pdf = () =>
    run('pdf', async () => {
      const file = await downloadPdf(slug, overrides);
      saveBlob(file.blob, file.filename);
    });

  /** Prints the same preview document (loading it first when the values changed). */
  const print = async () => {
    if (document && document.key === key) {
      frame.current?.contentWindow?.print();
      return;
    }
    printWhenLoaded.current = true;
    if ((await preview()) === null) printWhenLoaded.current = false;
  };

  const onFrameLoad = () => {
    if (!printWhenLoaded.current) return;
    printWhenLoaded.current = false;
    frame.current?.contentWindow?.print();
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void preview();
  };

  return (
    <Dialog
      title="Print"
      onClose={onClose}
      className="dialog--wide"
      description={`“${title}” with the values below, for this output only.`}
    >
      <form className="print" onSubmit={onSubmit}>
        <div className="print__fields">
          {variables.isPending ? (
            <Spinner />
          ) : variables.error ? (
            <ProblemMessage error={variables.error} />
          ) : variables.data.variables.length === 0 ? (
            <p className="field__hint">This page uses no variables: it prints as saved.</p>
          ) : (
            variables.data.variables.map((v) => (
              <Field
                key={v.name}
                label={v.name}
                hint={v.source === 'site' ? 'Site-wide value' : undefined}
                errors={problems?.errorsFor(`variables.${v.name}`) ?? []}
              >
                <input
                  className="input"
                  value={values[v.name] ?? v.value}
                  onChange={(e) => setValues((all) => ({ ...all, [v.name]: e.target.value }))}
                />
              </Field>
            ))
          )}
          <ProblemMessage error={problems?.errors.length ? null : error} />
          {problems?.errors.length ? (
            <p className="problem" role="alert">
              {problems.message}
            </p>
          ) : null}
        </div>
        <div className="print__preview">
          {document ? (
            <iframe
              ref={frame}
              title="Print preview"
              className="print__frame"
              // No allow-scripts: the document runs nothing. Same origin lets the console call print().
              sandbox="allow-same-origin allow-modals"
              srcDoc={document.html}
              onLoad={onFrameLoad}
            />
          ) : (
            <div className="print__placeholder">
              {busy === 'preview' ? 'Rendering…' : 'The preview appears here.'}
            </div>
          )}
        </div>
        <div className="dialog__actions">
          <button
            type="submit"
            className="button"
            disabled={busy !== null || variables.isPending}
            aria-busy={busy === 'preview'}
          >
            Preview print
          </button>
          <button
            type="button"
            className="button"
            onClick={pdf}
            disabled={busy !== null || variables.isPending}
            aria-busy={busy === 'pdf'}
          >
            PDF
          </button>
          <button
            type="button"
            className="button button--primary"
            onClick={print}
            disabled={busy !== null || variables.isPending}
          >
            Print
          </button>
          <button type="button" className="button button--quiet" onClick={onClose}>
            Close
          </button>
        </div>
      </form>
    </Dialog>
  );
}
