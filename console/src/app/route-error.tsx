import { isRouteErrorResponse, Link, useRouteError } from 'react-router';
import { describeError } from '../api/problem';
import { paths } from '../lib/routes';

/** What a screen shows when its code or data failed to load (a deploy in between, a bug). */
export function RouteError() {
  const error = useRouteError();
  const message = isRouteErrorResponse(error) ? error.statusText : describeError(error);
  return (
    <div className="screen screen--narrow" role="alert">
      <h1 className="screen__title">This screen could not be shown</h1>
      <p className="screen__lead">{message}</p>
      <p>
        <button type="button" className="button" onClick={() => window.location.reload()}>
          Reload
        </button>{' '}
        <Link to={paths.home()} className="button button--quiet">
          Go home
        </Link>
      </p>
    </div>
  );
}
