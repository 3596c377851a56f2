import { Link } from 'react-router';
import { EmptyState } from '../../components/ui/empty-state';

export function Component() {
  return (
    <main className="mx-auto max-w-xl p-8">
      <EmptyState
        headingLevel={1}
        title="Page not found"
        description="There is nothing at this address."
        action={
          <Link className="text-sm font-medium text-blue-800 underline" to="/dashboard">
            Go to the dashboard
          </Link>
        }
      />
    </main>
  );
}
