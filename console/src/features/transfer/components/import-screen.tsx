import { useState, type DragEvent, type FormEvent } from 'react';
import { Field } from '../../../components/field';
import { useDocumentTitle } from '../../../components/use-document-title';
import { formatBytes } from '../../../lib/format';
import { useImportJobs, type ImportFormat, type ImportRequest } from '../api/import';
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

/** The import's settings: everything of an import request but its kind and files. */
type Settings = Pick<ImportRequest, 'format' | 'prefix' | 'skipInvalid' | 'mirror'>;

function SettingsFields({
  settings,
  onChange,
}: {
  settings: Settings;
  onChange: (change: Partial<Settings>) => void;
}) {
  return (
    <div className="admin__form-grid">
      <Field label="Format">
        <select
          className="input"
          value={settings.format}
          onChange={(e) => onChange({ format: e.target.value as ImportFormat })}
        >
          {FORMATS.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </Field>
      <Field label="Prefix" hint="Optional: a slug every page goes below, such as handbook.">
        <input
          className="input"
          value={settings.prefix}
          onChange={(e) => onChange({ prefix: e.target.value })}
        />
      </Field>
    </div>
  );
}

function SettingsChecks({
  settings,
  onChange,
}: {
  settings: Settings;
  onChange: (change: Partial<Settings>) => void;
}) {
  return (
    <>
      <label className="check">
        <input
          type="checkbox"
          checked={settings.skipInvalid}
          onChange={(e) => onChange({ skipInvalid: e.target.checked })}
        />
        Skip invalid documents (import the rest and list them)
      </label>
      <label className="check">
        <input
          type="checkbox"
          checked={settings.mirror}
          onChange={(e) => onChange({ mirror: e.target.checked })}
        />
        Mirror: pages below that slug which the upload no longer holds go to the bin
      </label>
    </>
  );
}

/** What to import and how, with Dry run, Import and (while one runs) Cancel. */
function ImportForm({
  busy,
  onStart,
  onCancel,
}: {
  busy: boolean;
  onStart: (request: Omit<ImportRequest, 'asJob'>) => void;
  onCancel: () => void;
}) {
  const [settings, setSettings] = useState<Settings>({
    format: 'markdown',
    prefix: '',
    skipInvalid: false,
    mirror: false,
  });
  const [files, setFiles] = useState<File[]>([]);
  const change = (c: Partial<Settings>) => setSettings((s) => ({ ...s, ...c }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onStart({ ...settings, files, dryRun: false });
  };

  return (
    <form className="import__form" onSubmit={submit}>
      <SettingsFields settings={settings} onChange={change} />
      <FilePicker files={files} onFiles={setFiles} />
      <SettingsChecks settings={settings} onChange={change} />
      <div className="admin__buttons">
        <button
          type="button"
          className="button"
          disabled={busy || files.length === 0}
          onClick={() => onStart({ ...settings, files, dryRun: true })}
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
          onClick={onCancel}
        >
          Cancel
        </button>
      </div>
    </form>
  );
}

export function ImportScreen() {
  useDocumentTitle('Import');
  const jobs = useImportJobs();
  const run = useImportRun();
  const { report, stage, error } = run.state;
  const busy = stage === 'uploading' || stage === 'running';

  return (
    <section className="screen" aria-labelledby="import-title">
      <h1 id="import-title" className="screen__title">
        Import
      </h1>
      <p className="screen__lead">
        Pages from Markdown, Wiki.js or Confluence. A dry run shows what would happen without
        writing anything; an import writes everything or nothing.
      </p>
      <ImportForm
        busy={busy}
        onStart={(request) => void run.start({ ...request, asJob: jobs.data?.available ?? false })}
        onCancel={() => void run.cancel()}
      />
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
