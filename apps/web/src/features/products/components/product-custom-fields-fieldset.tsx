import type { CustomField } from '@tessera/sdk';
import { Link } from 'react-router';
import { ApiErrorAlert } from '../../../components/ui/alert';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Checkbox } from '../../../components/ui/input';
import { Loading } from '../../../components/ui/spinner';
import type { AttachedFieldDraft } from './attachments';

const TYPE_LABELS: Record<CustomField['type'], string> = {
  text: 'Text',
  number: 'Number',
  date: 'Date',
  checkbox: 'Checkbox',
  select: 'Select',
};

export interface ProductCustomFieldsFieldsetProps {
  /** The organization's custom fields (and any attached one missing from that list). */
  fields: readonly CustomField[];
  isLoading: boolean;
  loadError: unknown;
  attached: readonly AttachedFieldDraft[];
  onToggle(customFieldId: string, attach: boolean): void;
  onRequiredChange(customFieldId: string, required: boolean): void;
  onMove(customFieldId: string, step: -1 | 1): void;
  /** The API's problem with the attached field at a position of the list sent. */
  errorAt(position: number): string | undefined;
  customFieldsPath: string;
}

/**
 * Attached fields first, in the order customers are asked them, each with its "required" box and
 * buttons to move it; the organization's other fields below, ready to attach.
 */
export function ProductCustomFieldsFieldset(props: ProductCustomFieldsFieldsetProps) {
  const { fields, isLoading, loadError, attached, customFieldsPath } = props;
  const byId = new Map(fields.map((field) => [field.id, field]));
  const attachedIds = new Set(attached.map((draft) => draft.customFieldId));
  const rows = [
    ...attached.flatMap((draft) => {
      const field = byId.get(draft.customFieldId);
      return field ? [{ field, draft }] : [];
    }),
    ...fields.filter((field) => !attachedIds.has(field.id)).map((field) => ({ field, draft: undefined })),
  ];
  return (
    <Card>
      <fieldset>
        <legend className="mb-1 text-base font-semibold text-slate-900">Custom fields</legend>
        <p className="mb-3 text-sm text-slate-600">
          Questions asked at checkout, in the order listed here; the answers are saved with each order.{' '}
          <Link className="font-medium text-blue-800 underline" to={customFieldsPath}>
            Manage custom fields
          </Link>
        </p>
        {loadError ? (
          <div className="mb-3">
            <ApiErrorAlert error={loadError} />
          </div>
        ) : null}
        {isLoading ? (
          <Loading label="Loading custom fields…" />
        ) : rows.length === 0 ? (
          // Without the list, "none yet" may be untrue: the alert above says what failed.
          !loadError && (
            <p className="text-sm text-slate-700">
              No custom fields yet. Create questions such as a company name or a team size on the{' '}
              <Link className="font-medium text-blue-800 underline" to={customFieldsPath}>
                Custom fields page
              </Link>
              , then attach them here.
            </p>
          )
        ) : (
          <ul className="divide-y divide-slate-100 rounded-md border border-slate-200">
            {rows.map(({ field, draft }) => (
              <CustomFieldRow key={field.id} field={field} draft={draft} {...props} />
            ))}
          </ul>
        )}
      </fieldset>
    </Card>
  );
}

function CustomFieldRow({
  field,
  draft,
  attached,
  onToggle,
  onRequiredChange,
  onMove,
  errorAt,
}: ProductCustomFieldsFieldsetProps & { field: CustomField; draft: AttachedFieldDraft | undefined }) {
  const position = attached.findIndex((item) => item.customFieldId === field.id);
  const error = position >= 0 ? errorAt(position) : undefined;
  return (
    <li className="flex flex-wrap items-center gap-x-4 gap-y-2 px-4 py-3">
      <Checkbox
        className="font-medium text-slate-900"
        label={field.name}
        checked={Boolean(draft)}
        aria-invalid={error ? true : undefined}
        onChange={(event) => onToggle(field.id, event.target.checked)}
      />
      <Badge tone="info">{TYPE_LABELS[field.type] ?? field.type}</Badge>
      {draft && (
        <>
          <Checkbox
            label="Required"
            aria-label={`${field.name} required`}
            checked={draft.required}
            onChange={(event) => onRequiredChange(field.id, event.target.checked)}
          />
          <span className="ml-auto flex gap-1">
            <Button
              variant="ghost"
              size="sm"
              aria-label={`Move ${field.name} up`}
              disabled={position === 0}
              onClick={() => onMove(field.id, -1)}
            >
              ↑
            </Button>
            <Button
              variant="ghost"
              size="sm"
              aria-label={`Move ${field.name} down`}
              disabled={position === attached.length - 1}
              onClick={() => onMove(field.id, 1)}
            >
              ↓
            </Button>
          </span>
        </>
      )}
      {error && <p className="w-full text-sm text-red-700">{error}</p>}
    </li>
  );
}
