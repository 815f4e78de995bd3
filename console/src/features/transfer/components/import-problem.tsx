import { ApiProblem } from '../../../api/problem';
import { ProblemMessage } from '../../../components/problem-message';

/** What a refused import means, in words, for the codes an upload can meet. */
const EXPLANATIONS: Record<string, string> = {
  import_request_too_large:
    'The upload is larger than kb accepts in one import. Split it into several uploads.',
  import_too_large:
    'Unpacked, the files are larger than kb accepts in one import. Split it into several uploads.',
  import_too_many_entries:
    'The upload holds more files than kb accepts in one import. Split it into several uploads.',
  import_conflict: 'Someone changed one of these pages meanwhile. Nothing was imported; try again.',
  validation_failed: 'Nothing was imported. Fix these files, or tick “Skip invalid documents”.',
};

/** `files[guides/a.md]` → `guides/a.md`; other fields stay as they are. */
function subjectOf(field: string): string {
  const match = /^files\[(.*)\]$/.exec(field);
  return match ? match[1] : field;
}

/** A refused upload (413, 422, 409…) or a failed job's problem, with every file's problem. */
export function ImportProblem({ error }: { error: unknown }) {
  if (!(error instanceof ApiProblem)) return <ProblemMessage error={error} title="Not imported." />;
  const explanation = EXPLANATIONS[error.code];
  return (
    <div className="problem" role="alert">
      <strong className="problem__title">Not imported. </strong>
      {error.message}
      {explanation && <p className="import__explanation">{explanation}</p>}
      {error.errors.length > 0 && (
        <ul className="import__problems">
          {error.errors.slice(0, 100).map((e) => (
            <li key={`${e.field}:${e.code}`}>
              <code>{subjectOf(e.field)}</code>: {e.message}
            </li>
          ))}
          {error.errors.length > 100 && <li>…and {error.errors.length - 100} more.</li>}
        </ul>
      )}
    </div>
  );
}
