import type { CustomField } from '@tessera/sdk';
import { useState } from 'react';
import { ApiErrorAlert } from '../../../components/ui/alert';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { ConfirmButton } from '../../../components/ui/confirm-button';
import { EmptyState } from '../../../components/ui/empty-state';
import { PagedTable, SearchField, usePage } from '../../../components/ui/paged-list';
import { useToast } from '../../../components/ui/toast';
import { formatDate } from '../../../lib/format';
import { useDeleteCustomField } from '../api/delete-custom-field';
import { useCustomFields } from '../api/get-custom-fields';
import { CustomFieldFormDialog } from './custom-field-form-dialog';
import { CUSTOM_FIELD_TYPES } from './custom-field-values';

type Sorting = 'created_at' | '-created_at' | 'slug' | '-slug' | 'name' | '-name' | 'type' | '-type';

/** A short account of a field's rules, e.g. "3 options" or "at most 200 characters". */
export function describeCustomField(field: CustomField): string {
  switch (field.type) {
    case 'text': {
      const { min_length: min, max_length: max, textarea } = field.properties;
      const kind = textarea ? 'Paragraph' : 'Single line';
      if (min !== undefined && max !== undefined) return `${kind}, ${min} to ${max} characters`;
      if (max !== undefined) return `${kind}, at most ${max} characters`;
      if (min !== undefined) return `${kind}, at least ${min} characters`;
      return kind;
    }
    case 'number': {
      const { ge, le } = field.properties;
      if (ge !== undefined && le !== undefined) return `From ${ge} to ${le}`;
      if (ge !== undefined) return `At least ${ge}`;
      if (le !== undefined) return `At most ${le}`;
      return 'Any whole number';
    }
    case 'date': {
      const { ge, le } = field.properties;
      const day = (seconds: number) => formatDate(new Date(seconds * 1000).toISOString());
      if (ge !== undefined && le !== undefined) return `From ${day(ge)} to ${day(le)}`;
      if (ge !== undefined) return `From ${day(ge)}`;
      if (le !== undefined) return `Until ${day(le)}`;
      return 'Any date';
    }
    case 'checkbox':
      return 'Yes or no';
    case 'select':
      return field.properties.options.map((option) => option.label).join(', ');
  }
}

export function CustomFieldsList({ organizationId }: { organizationId: string }) {
  const [search, setSearch] = useState('');
  const [page, setPage] = usePage(search);
  const [sorting, setSorting] = useState<Sorting>('name');
  const query = useCustomFields({
    organization_id: organizationId,
    query: search.trim() || undefined,
    page,
    limit: 20,
    sorting: [sorting],
  });
  const remove = useDeleteCustomField();
  const toast = useToast();

  return (
    <div className="space-y-4">
      <SearchField label="Search custom fields" placeholder="Name or slug" value={search} onChange={setSearch} />
      <ApiErrorAlert error={remove.error} />
      <PagedTable
        query={query}
        loadingLabel="Loading custom fields…"
        page={page}
        onPageChange={setPage}
        empty={
          search.trim() ? (
            <EmptyState title="No matching custom fields" description="Nothing matches this search." />
          ) : (
            <EmptyState
              title="No custom fields yet"
              description="Custom fields ask customers for more at checkout: a company name, a date, a choice. Create one, then attach it to products."
            />
          )
        }
        label="Custom fields"
        sorting={sorting}
        onSortingChange={setSorting}
        columns={[
          { header: 'Name', sortField: 'name', className: 'font-medium', cell: (field) => field.name },
          {
            header: 'Slug',
            sortField: 'slug',
            cell: (field) => <code className="font-mono text-xs">{field.slug}</code>,
          },
          {
            header: 'Type',
            sortField: 'type',
            cell: (field) => <Badge tone="info">{CUSTOM_FIELD_TYPES[field.type].label}</Badge>,
          },
          { header: 'Rules', className: 'max-w-xs', cell: describeCustomField },
          { header: 'Created', sortField: 'created_at', cell: (field) => formatDate(field.created_at) },
          {
            header: 'Actions',
            hideHeader: true,
            align: 'right',
            className: 'space-x-2 whitespace-nowrap',
            cell: (field) => (
              <>
                <CustomFieldFormDialog
                  organizationId={organizationId}
                  field={field}
                  trigger={(open) => (
                    <Button variant="secondary" size="sm" aria-label={`Edit ${field.name}`} onClick={open}>
                      Edit
                    </Button>
                  )}
                />
                <ConfirmButton
                  aria-label={`Delete ${field.name}`}
                  title={`Delete “${field.name}”?`}
                  description="It is removed from every product's checkout. Answers already given stay on their orders."
                  confirmLabel="Delete custom field"
                  onConfirm={() => remove.mutate(field.id, { onSuccess: () => toast('Custom field deleted') })}
                >
                  Delete
                </ConfirmButton>
              </>
            ),
          },
        ]}
      />
    </div>
  );
}
