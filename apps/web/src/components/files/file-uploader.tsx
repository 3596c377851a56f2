import type { FileRead } from '@tessera/sdk';
import { useEffect, useId, useRef, useState, type DragEvent } from 'react';
import { cn } from '../../lib/cn';
import { filesUploadApi } from '../../lib/uploads/files-api';
import { xhrPutPart } from '../../lib/uploads/put-part';
import {
  UploadTask,
  type FileService,
  type PutPart,
  type UploadApi,
  type UploadSnapshot,
} from '../../lib/uploads/upload-task';
import { Button } from '../ui/button';

/** The images product media and avatars may be (the API's own list). */
export const IMAGE_TYPES = 'image/jpeg,image/png,image/gif,image/webp,image/svg+xml';

export interface FileUploaderProps {
  service: FileService;
  organizationId: string;
  /** Names the drop zone and the file button for assistive technology. */
  label: string;
  hint?: string;
  /** The `accept` of the file input; files of another type are refused before sending. */
  accept?: string;
  /** The largest file, in bytes, refused before sending. */
  maxBytes?: number;
  multiple?: boolean;
  onUploaded(file: FileRead): void;
  /** The network, replaced in tests. */
  api?: UploadApi<FileRead>;
  putPart?: PutPart;
}

interface Upload {
  key: number;
  name: string;
  task?: UploadTask<FileRead>;
  snapshot: UploadSnapshot<FileRead>;
}

const ACTIVE = new Set(['hashing', 'uploading', 'completing']);

function percentOf(snapshot: UploadSnapshot<FileRead>): number {
  if (snapshot.phase === 'done') return 100;
  return snapshot.total === 0 ? 0 : Math.floor((snapshot.loaded / snapshot.total) * 100);
}

function readableSize(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(unit === 0 ? 0 : 1)} ${units[unit]}`;
}

function accepts(accept: string | undefined, file: File): boolean {
  if (!accept) return true;
  return accept.split(',').some((type) => {
    const wanted = type.trim().toLowerCase();
    if (wanted.startsWith('.')) return file.name.toLowerCase().endsWith(wanted);
    if (wanted.endsWith('/*')) return file.type.startsWith(wanted.slice(0, -1));
    return file.type === wanted;
  });
}

/**
 * Drag and drop or a file button; each file is uploaded in parts (lib/uploads) with one progress bar,
 * a Retry button for the parts that failed twice, and Cancel. When a file is uploaded it is handed to
 * `onUploaded` and leaves the list: the form shows it among its own files.
 */
export function FileUploader(props: FileUploaderProps) {
  const { service, organizationId, label, hint, accept, maxBytes, multiple = false } = props;
  const [uploads, setUploads] = useState<Upload[]>([]);
  const [announcement, setAnnouncement] = useState('');
  const [isOver, setIsOver] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const nextKey = useRef(1);
  const onUploaded = useRef(props.onUploaded);
  onUploaded.current = props.onUploaded;
  const tasks = useRef(new Set<UploadTask<FileRead>>());
  const id = useId();

  // Leaving the page cancels what is still being sent.
  useEffect(() => {
    const running = tasks.current;
    return () => running.forEach((task) => task.cancel());
  }, []);

  const patch = (key: number, change: Partial<Upload>) =>
    setUploads((current) => current.map((upload) => (upload.key === key ? { ...upload, ...change } : upload)));
  const remove = (key: number) => setUploads((current) => current.filter((upload) => upload.key !== key));

  function refusal(file: File): string | undefined {
    if (!accepts(accept, file)) return `${file.name} is not a file of an accepted type.`;
    if (maxBytes !== undefined && file.size > maxBytes)
      return `${file.name} is ${readableSize(file.size)}; the largest accepted is ${readableSize(maxBytes)}.`;
    return undefined;
  }

  function add(files: File[]) {
    const chosen = multiple ? files : files.slice(0, 1);
    for (const file of chosen) {
      const key = nextKey.current++;
      const problem = refusal(file);
      if (problem) {
        setUploads((current) => [
          ...current,
          {
            key,
            name: file.name,
            snapshot: { phase: 'failed', loaded: 0, total: file.size, failedParts: [], error: problem },
          },
        ]);
        setAnnouncement(problem);
        continue;
      }
      let lastPhase = '';
      const task: UploadTask<FileRead> = new UploadTask({
        file,
        service,
        organizationId,
        api: props.api ?? filesUploadApi,
        putPart: props.putPart ?? xhrPutPart,
        onChange: (snapshot) => {
          patch(key, { snapshot });
          if (snapshot.phase === lastPhase) return;
          lastPhase = snapshot.phase;
          if (snapshot.phase === 'uploading') setAnnouncement(`Uploading ${file.name}.`);
          if (snapshot.phase === 'failed') setAnnouncement(`${file.name} was not uploaded. ${snapshot.error ?? ''}`);
          if (snapshot.phase === 'canceled') setAnnouncement(`Upload of ${file.name} canceled.`);
          if (snapshot.phase === 'done') {
            setAnnouncement(`${file.name} uploaded.`);
            tasks.current.delete(task);
            remove(key);
            if (snapshot.file) onUploaded.current(snapshot.file);
          }
        },
      });
      tasks.current.add(task);
      setUploads((current) => [...current, { key, name: file.name, task, snapshot: task.snapshot }]);
      void task.start();
    }
  }

  function onDrop(event: DragEvent) {
    event.preventDefault();
    setIsOver(false);
    add(Array.from(event.dataTransfer.files));
  }

  return (
    <div className="space-y-3">
      <div
        role="group"
        aria-labelledby={`${id}-label`}
        aria-describedby={hint ? `${id}-hint` : undefined}
        onDragOver={(event) => {
          event.preventDefault();
          setIsOver(true);
        }}
        onDragLeave={() => setIsOver(false)}
        onDrop={onDrop}
        className={cn(
          'flex flex-col items-center gap-2 rounded-md border-2 border-dashed px-4 py-6 text-center text-sm',
          isOver ? 'border-blue-500 bg-blue-50' : 'border-slate-300 bg-slate-50',
        )}
      >
        <p id={`${id}-label`} className="font-medium text-slate-800">
          {label}
        </p>
        <p className="text-slate-600">Drag {multiple ? 'files' : 'a file'} here, or</p>
        <Button variant="secondary" size="sm" onClick={() => input.current?.click()}>
          Choose {multiple ? 'files' : 'a file'}
        </Button>
        {hint && (
          <p id={`${id}-hint`} className="text-xs text-slate-600">
            {hint}
          </p>
        )}
        <input
          ref={input}
          type="file"
          className="sr-only"
          tabIndex={-1}
          aria-label={label}
          accept={accept}
          multiple={multiple}
          onChange={(event) => {
            add(Array.from(event.target.files ?? []));
            event.target.value = '';
          }}
        />
      </div>
      {uploads.length > 0 && (
        <ul className="space-y-2" aria-label={`Uploads: ${label}`}>
          {uploads.map((upload) => (
            <UploadRow
              key={upload.key}
              upload={upload}
              onRetry={() => void upload.task?.retry()}
              onCancel={() => upload.task?.cancel()}
              onDismiss={() => remove(upload.key)}
            />
          ))}
        </ul>
      )}
      <p role="status" aria-live="polite" className="sr-only">
        {announcement}
      </p>
    </div>
  );
}

function UploadRow({
  upload,
  onRetry,
  onCancel,
  onDismiss,
}: {
  upload: Upload;
  onRetry(): void;
  onCancel(): void;
  onDismiss(): void;
}) {
  const { snapshot, name } = upload;
  const percent = percentOf(snapshot);
  const isActive = ACTIVE.has(snapshot.phase);
  const status =
    snapshot.phase === 'hashing'
      ? 'Preparing…'
      : snapshot.phase === 'completing'
        ? 'Finishing…'
        : snapshot.phase === 'canceled'
          ? 'Canceled'
          : snapshot.phase === 'failed'
            ? (snapshot.error ?? 'Failed')
            : `${percent}% of ${readableSize(snapshot.total)}`;
  return (
    <li className="rounded-md border border-slate-200 px-3 py-2 text-sm">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <span className="min-w-0 truncate font-medium text-slate-900">{name}</span>
        <div className="flex gap-2">
          {snapshot.phase === 'failed' && upload.task && (
            <Button variant="secondary" size="sm" onClick={onRetry}>
              Retry {name}
            </Button>
          )}
          {isActive ? (
            <Button variant="ghost" size="sm" onClick={onCancel}>
              Cancel {name}
            </Button>
          ) : (
            <Button variant="ghost" size="sm" onClick={onDismiss}>
              Dismiss {name}
            </Button>
          )}
        </div>
      </div>
      <div
        role="progressbar"
        aria-label={`Upload of ${name}`}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        className="mt-2 h-2 overflow-hidden rounded-full bg-slate-200"
      >
        <div
          className={cn('h-full transition-[width]', snapshot.phase === 'failed' ? 'bg-red-600' : 'bg-blue-700')}
          style={{ width: `${percent}%` }}
        />
      </div>
      <p className={cn('mt-1 text-xs', snapshot.phase === 'failed' ? 'text-red-700' : 'text-slate-600')}>{status}</p>
    </li>
  );
}
