import type { ReactNode } from 'react';
import { describeError, otherIssues } from '../../lib/api-error';
import { cn } from '../../lib/cn';

const tones = {
  error: 'border-red-300 bg-red-50 text-red-900',
  success: 'border-green-300 bg-green-50 text-green-900',
  info: 'border-blue-300 bg-blue-50 text-blue-900',
};

export function Alert({
  tone = 'info',
  title,
  children,
}: {
  tone?: keyof typeof tones;
  title: string;
  children?: ReactNode;
}) {
  return (
    <div
      role={tone === 'error' ? 'alert' : 'status'}
      className={cn('rounded-md border px-4 py-3 text-sm', tones[tone])}
    >
      <p className="font-semibold">{title}</p>
      {children && <div className="mt-1">{children}</div>}
    </div>
  );
}

function humanize(field: string): string {
  const words = field
    .replace(/\.(\d+)\./g, ' $1 ')
    .replace(/[._]/g, ' ')
    .trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * An API error in words. Field problems shown next to their controls (`shownFields`) are not repeated;
 * every other problem is listed with the field it names.
 */
export function ApiErrorAlert({ error, shownFields = [] }: { error: unknown; shownFields?: readonly string[] }) {
  if (!error) return null;
  const described = describeError(error);
  const rest = otherIssues(error, shownFields);
  return (
    <Alert tone="error" title={described.message}>
      {rest.length > 0 && (
        <ul className="list-disc space-y-0.5 pl-5">
          {rest.map((issue, index) => (
            <li key={index}>{issue.field ? `${humanize(issue.field)}: ${issue.message}` : issue.message}</li>
          ))}
        </ul>
      )}
    </Alert>
  );
}
