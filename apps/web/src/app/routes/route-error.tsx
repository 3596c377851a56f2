import { isRouteErrorResponse, Link, useRouteError } from 'react-router';
import { Alert } from '../../components/ui/alert';

/** A chunk that failed to load (after a deploy, say) or a rendering error, in words. */
export function RouteError() {
  const error = useRouteError();
  const message = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : 'Unknown error';
  return (
    <main className="mx-auto max-w-xl space-y-4 p-8">
      <Alert tone="error" title="This page could not be shown.">
        <p>{message}</p>
        <p className="mt-2">Reload the page; if it keeps happening, the server may have been updated meanwhile.</p>
      </Alert>
      <Link className="text-sm font-medium text-blue-800 underline" to="/dashboard">
        Back to the dashboard
      </Link>
    </main>
  );
}
