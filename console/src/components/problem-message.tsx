import { describeError } from '../api/problem';

/** The one way to show a problem that belongs to no field: a polite alert with its detail. */
export function ProblemMessage({ error, title }: { error: unknown; title?: string }) {
  if (!error) return null;
  return (
    <div className="problem" role="alert">
      {title && <strong className="problem__title">{title} </strong>}
      {describeError(error)}
    </div>
  );
}
