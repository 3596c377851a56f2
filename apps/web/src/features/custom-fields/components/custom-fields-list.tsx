import type { CustomField } from '@tessera/sdk';
import { useState } from 'react';
import { ApiErrorAlert } from '../../../components/ui/alert';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { ConfirmButton } from '../../../components/ui/confirm-button';
import { EmptyState } from '../../../components/ui/empty-state';
import { Field } from '../../../components/ui/field';
import { Input } from '../../../components/ui/input';
import { Loading } from '../../../components/ui/spinner';
import { Pagination, SortHeader, Table, TableHead, Td, Th, Tr } from '../../../components/ui/table';
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
  const [page, setPage] = useState(1);
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
  const sort = (value: string) => setSorting(value as Sorting);

  return (
    <div className="space-y-4">
      <Field label="Search custom fields" className="w-full sm:w-72">
        <Input
          type="search"
          value={search}
          placeholder="Name or slug"
          onChange={(event) => {
            setSearch(event.target.value);
            setPage(1);
          }}
        />
      </Field>
      <ApiErrorAlert error={remove.error} />
      {query.isPending ? (
        <Loading label="Loading custom fields…" />
      ) : query.isError ? (
        <ApiErrorAlert error={query.error} />
      ) : query.data.items.length === 0 ? (
        search.trim() ? (
          <EmptyState title="No matching custom fields" description="Nothing matches this search." />
        ) : (
          <EmptyState
            title="No custom fields yet"
            description="Custom fields ask customers for more at checkout: a company name, a date, a choice. Create one, then attach it to products."
          />
        )
      ) : (
        <>
          <Table label="Custom fields">
            <TableHead>
              <SortHeader label="Name" field="name" sorting={sorting} onSortingChange={sort} />
              <SortHeader label="Slug" field="slug" sorting={sorting} onSortingChange={sort} />
              <SortHeader label="Type" field="type" sorting={sorting} onSortingChange={sort} />
              <Th>Rules</Th>
              <SortHeader label="Created" field="created_at" sorting={sorting} onSortingChange={sort} />
              <Th>
                <span className="sr-only">Actions</span>
              </Th>
            </TableHead>
            <tbody>
              {query.data.items.map((field) => (
                <Tr key={field.id}>
                  <Td className="font-medium">{field.name}</Td>
                  <Td>
                    <code className="font-mono text-xs">{field.slug}</code>
                  </Td>
                  <Td>
                    <Badge tone="info">{CUSTOM_FIELD_TYPES[field.type].label}</Badge>
                  </Td>
                  <Td className="max-w-xs">{describeCustomField(field)}</Td>
                  <Td>{formatDate(field.created_at)}</Td>
                  <Td className="space-x-2 text-right whitespace-nowrap">
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
                  </Td>
                </Tr>
              ))}
            </tbody>
          </Table>
          <Pagination
            page={page}
            maxPage={query.data.pagination.max_page}
            totalCount={query.data.pagination.total_count}
            onPageChange={setPage}
          />
        </>
      )}
    </div>
  );
}
