import { useRef, useState } from 'react';
import { saveBlob } from '../../../lib/download';
import { downloadPdf, previewPrint } from '../api/print';

export type Busy = 'preview' | 'pdf' | 'print' | null;

/**
 * The three outputs of the print dialog for one set of overrides: the preview document, the
 * PDF download, and printing the preview (rendering it first when the values changed).
 * `key` names the overrides, so a preview of other values is not printed.
 */
export function usePrintOutput(slug: string, overrides: Record<string, string>, key: string) {
  const [document, setDocument] = useState<{ html: string; key: string } | null>(null);
  const [busy, setBusy] = useState<Busy>(null);
  const [error, setError] = useState<unknown>(null);
  const frame = useRef<HTMLIFrameElement>(null);
  const printWhenLoaded = useRef(false);

  const run = async <T>(kind: Busy, task: () => Promise<T>): Promise<T | null> => {
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

  return { document: document?.html ?? null, busy, error, frame, preview, pdf, print, onFrameLoad };
}
