import { useState, type FormEvent, type RefObject } from 'react';
import { ApiProblem } from '../../../api/problem';
import { Dialog } from '../../../components/dialog';
import { Field } from '../../../components/field';
import { ProblemMessage } from '../../../components/problem-message';
import { Spinner } from '../../../components/spinner';
import { usePrintVariables } from '../api/print';
import { usePrintOutput, type Busy } from './use-print-output';

interface Props {
  slug: string;
  title: string;
  onClose: () => void;
}

/** The page's variables, each showing its saved value until changed here. */
function VariableFields({
  variables,
  values,
  problems,
  onChange,
}: {
  variables: ReturnType<typeof usePrintVariables>;
  values: Record<string, string>;
  problems: ApiProblem | null;
  onChange: (name: string, value: string) => void;
}) {
  if (variables.isPending) return <Spinner />;
  if (variables.error) return <ProblemMessage error={variables.error} />;
  if (variables.data.variables.length === 0)
    return <p className="field__hint">This page uses no variables: it prints as saved.</p>;
  return variables.data.variables.map((v) => (
    <Field
      key={v.name}
      label={v.name}
      hint={v.source === 'site' ? 'Site-wide value' : undefined}
      errors={problems?.errorsFor(`variables.${v.name}`) ?? []}
    >
      <input
        className="input"
        value={values[v.name] ?? v.value}
        onChange={(e) => onChange(v.name, e.target.value)}
      />
    </Field>
  ));
}

function PrintPreview({
  html,
  busy,
  frame,
  onLoad,
}: {
  html: string | null;
  busy: Busy;
  frame: RefObject<HTMLIFrameElement | null>;
  onLoad: () => void;
}) {
  return (
    <div className="print__preview">
      {html !== null ? (
        <iframe
          ref={frame}
          title="Print preview"
          className="print__frame"
          // No allow-scripts: the document runs nothing. Same origin lets the console call print().
          sandbox="allow-same-origin allow-modals"
          srcDoc={html}
          onLoad={onLoad}
        />
      ) : (
        <div className="print__placeholder">
          {busy === 'preview' ? 'Rendering…' : 'The preview appears here.'}
        </div>
      )}
    </div>
  );
}

/** Preview print (the form's submit), PDF, Print and Close. */
function PrintActions({
  busy,
  disabled,
  onPdf,
  onPrint,
  onClose,
}: {
  busy: Busy;
  disabled: boolean;
  onPdf: () => void;
  onPrint: () => void;
  onClose: () => void;
}) {
  return (
    <div className="dialog__actions">
      <button type="submit" className="button" disabled={disabled} aria-busy={busy === 'preview'}>
        Preview print
      </button>
      <button
        type="button"
        className="button"
        onClick={onPdf}
        disabled={disabled}
        aria-busy={busy === 'pdf'}
      >
        PDF
      </button>
      <button
        type="button"
        className="button button--primary"
        onClick={onPrint}
        disabled={disabled}
      >
        Print
      </button>
      <button type="button" className="button button--quiet" onClick={onClose}>
        Close
      </button>
    </div>
  );
}

/**
 * The print dialog of the contract: the page's variables with their saved values, changeable
 * for this output only. Closing it unmounts it, so the overrides are gone; nothing is stored.
 * The preview is the server's print document in a sandboxed frame that runs no script.
 */
export default function PrintDialog({ slug, title, onClose }: Props) {
  const variables = usePrintVariables(slug);
  const [values, setValues] = useState<Record<string, string>>({});
  const saved = Object.fromEntries((variables.data?.variables ?? []).map((v) => [v.name, v.value]));
  /** Only the changed values are overrides. */
  const overrides = Object.fromEntries(
    Object.entries(values).filter(([name, value]) => name in saved && value !== saved[name]),
  );
  const output = usePrintOutput(slug, overrides, JSON.stringify(overrides));
  const { busy, error } = output;
  const problems = error instanceof ApiProblem ? error : null;
  const disabled = busy !== null || variables.isPending;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void output.preview();
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
          <VariableFields
            variables={variables}
            values={values}
            problems={problems}
            onChange={(name, value) => setValues((all) => ({ ...all, [name]: value }))}
          />
          <ProblemMessage error={problems?.errors.length ? null : error} />
          {problems?.errors.length ? (
            <p className="problem" role="alert">
              {problems.message}
            </p>
          ) : null}
        </div>
        <PrintPreview
          html={output.document}
          busy={busy}
          frame={output.frame}
          onLoad={output.onFrameLoad}
        />
        <PrintActions
          busy={busy}
          disabled={disabled}
          onPdf={output.pdf}
          onPrint={output.print}
          onClose={onClose}
        />
      </form>
    </Dialog>
  );
}
