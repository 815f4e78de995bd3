import { useState, type DragEvent, type FormEvent } from 'react';
import { Field } from '../../../components/field';
import { useDocumentTitle } from '../../../components/use-document-title';
import { formatBytes } from '../../../lib/format';
import { useImportJobs, type ImportFormat } from '../api/import';
import { phaseLabel, useImportRun, type RunState } from '../api/use-import-run';
import { ImportProblem } from './import-problem';
import { PastJobs } from './past-jobs';
import { PlanTable } from './plan-table';

const FORMATS: [ImportFormat, string][] = [
  ['markdown', 'Markdown'],
  ['wikijs', 'Wiki.js'],
  ['confluence', 'Confluence'],
];

function ImportProgress({ state }: { state: RunState }) {
  const busy = state.stage === 'uploading' || state.stage === 'running';
  const known = state.total > 0;
  const label =
    state.stage === 'uploading'
      ? `Uploading: ${formatBytes(state.done)}${known ? ` of ${formatBytes(state.total)}` : ''}`
      : state.phase === 'queued'
        ? 'Waiting for its turn…'
        : `${phaseLabel(state.phase)}: ${state.done}${known ? ` of ${state.total}` : ''}`;
  return (
    <div className="import__progress" hidden={!busy}>
      <progress
        aria-label="Import progress"
        className="import__bar"
        max={known ? state.total : undefined}
        value={known ? state.done : undefined}
      />
      <p className="import__phase" aria-live="polite">
        {busy ? label : ''}
      </p>
    </div>
  );
}

function FilePicker({ files, onFiles }: { files: File[]; onFiles: (files: File[]) => void }) {
  const [over, setOver] = useState(false);
  const drop = (event: DragEvent) => {
    event.preventDefault();
    setOver(false);
    onFiles([...files, ...Array.from(event.dataTransfer.files)]);
  };
  return (
    <div
      className={`import__drop ${over ? 'import__drop--over' : ''}`}
      onDragOver={(e) => {
        e.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={drop}
    >
      <Field label="Files" hint="Drop files or ZIPs here, or pick them.">
        <input
          className="input"
          type="file"
          multiple
          onChange={(e) => onFiles(Array.from(e.target.files ?? []))}
        />
      </Field>
      {files.length > 0 && (
        <p className="import__files">
          {files.length === 1 ? '1 file' : `${files.length} files`},{' '}
          {formatBytes(files.reduce((n, f) => n + f.size, 0))}:{' '}
          {files.map((f) => f.name).join(', ')}
        </p>
      )}
    </div>
  );
}

export function ImportScreen() {
  useDocumentTitle('Import');
  const jobs = useImportJobs();
  const run = useImportRun();
  const [format, setFormat] = useState<ImportFormat>('markdown');
  const [files, setFiles] = useState<File[]>([]);
  const [prefix, setPrefix] = useState('');
  const [skipInvalid, setSkipInvalid] = useState(false);
  const [mirror, setMirror] = useState(false);
  const busy = run.state.stage === 'uploading' || run.state.stage === 'running';

  const submit = (dryRun: boolean) => (event?: FormEvent) => {
    event?.preventDefault();
    const asJob = jobs.data?.available ?? false;
    void run.start({ format, files, prefix, skipInvalid, mirror, dryRun, asJob });
  };
  const { report, stage, error } = run.state;

  return (
    <section className="screen" aria-labelledby="import-title">
      <h1 id="import-title" className="screen__title">
        Import
      </h1>
      <p className="screen__lead">
        Pages from Markdown, Wiki.js or Confluence. A dry run shows what would happen without
        writing anything; an import writes everything or nothing.
      </p>
      <form className="import__form" onSubmit={submit(false)}>
        <div className="admin__form-grid">
          <Field label="Format">
            <select
              className="input"
              value={format}
              onChange={(e) => setFormat(e.target.value as ImportFormat)}
            >
              {FORMATS.map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          </Field>
          <Field label="Prefix" hint="Optional: a slug every page goes below, such as handbook.">
            <input className="input" value={prefix} onChange={(e) => setPrefix(e.target.value)} />
          </Field>
        </div>
        <FilePicker files={files} onFiles={setFiles} />
        <label className="check">
          <input
            type="checkbox"
            checked={skipInvalid}
            onChange={(e) => setSkipInvalid(e.target.checked)}
          />
          Skip invalid documents (import the rest and list them)
        </label>
        <label className="check">
          <input type="checkbox" checked={mirror} onChange={(e) => setMirror(e.target.checked)} />
          Mirror: pages below that slug which the upload no longer holds go to the bin
        </label>
        <div className="admin__buttons">
          <button
            type="button"
            className="button"
            disabled={busy || files.length === 0}
            onClick={() => submit(true)()}
          >
            Dry run
          </button>
          <button
            type="submit"
            className="button button--primary"
            disabled={busy || files.length === 0}
          >
            Import
          </button>
          <button
            type="button"
            className="button button--danger-quiet"
            disabled={!busy}
            onClick={() => void run.cancel()}
          >
            Cancel
          </button>
        </div>
      </form>
      <ImportProgress state={run.state} />
      <p role="status" className="admin__status">
        {stage === 'cancelled' ? 'Cancelled: nothing was written.' : ''}
      </p>
      {stage === 'failed' && <ImportProblem error={error} />}
      {stage === 'done' && report && (
        <PlanTable
          key={String(report.dryRun)}
          report={report}
          name={report.dryRun ? 'Plan' : 'Report'}
        />
      )}
      {jobs.data?.available && (
        <PastJobs jobs={jobs.data.items} error={jobs.error} onShow={run.show} />
      )}
    </section>
  );
}

export default ImportScreen;
