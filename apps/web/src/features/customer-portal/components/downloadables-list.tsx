import { ApiErrorAlert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { EmptyState } from '../../../components/ui/empty-state';
import { Loading } from '../../../components/ui/spinner';
import { useDownloadables } from '../api/get-downloadables';

/**
 * The files the customer's benefits grant. Each Download is the API's own link
 * (`/v1/customer-portal/downloadables/{token}`), which counts the download and redirects to the file;
 * the links expire, so the list is read again before they do.
 */
export function DownloadablesList({ sellerName }: { sellerName: string }) {
  const downloadables = useDownloadables({ limit: 100 });
  if (downloadables.isPending) return <Loading label="Loading your downloads…" />;
  if (downloadables.isError) return <ApiErrorAlert error={downloadables.error} />;
  if (downloadables.data.items.length === 0)
    return (
      <EmptyState
        title="No downloads yet"
        description={`Files that come with what you bought from ${sellerName} appear here.`}
      />
    );
  return (
    <ul className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white" aria-label="Downloads">
      {downloadables.data.items.map(({ id, file }) => (
        <li key={id} className="flex flex-wrap items-center justify-between gap-3 px-4 py-3">
          <div className="min-w-0">
            <p className="truncate text-sm font-medium text-slate-900">{file.name}</p>
            <p className="text-xs text-slate-600">
              {file.size_readable}
              {file.version ? ` · version ${file.version}` : ''}
            </p>
          </div>
          <Button asChild variant="secondary" size="sm">
            <a href={file.download.url} download={file.name} aria-label={`Download ${file.name}`}>
              Download
            </a>
          </Button>
        </li>
      ))}
    </ul>
  );
}
