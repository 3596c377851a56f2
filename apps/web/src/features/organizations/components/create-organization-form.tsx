import type { Organization } from '@tessera/sdk';
import { useState, type FormEvent } from 'react';
import { ApiErrorAlert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Field } from '../../../components/ui/field';
import { Input } from '../../../components/ui/input';
import { fieldError } from '../../../lib/api-error';
import { useCreateOrganization } from '../api/create-organization';

export function slugify(name: string): string {
  return name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/\p{Mn}/gu, '') // accents split off by NFKD: "é" → "e", not "e-"
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 100);
}

export function CreateOrganizationForm({ onCreated }: { onCreated(organization: Organization): void }) {
  const [name, setName] = useState('');
  const [slug, setSlug] = useState('');
  const [isSlugEdited, setIsSlugEdited] = useState(false);
  const mutation = useCreateOrganization();

  function submit(event: FormEvent) {
    event.preventDefault();
    mutation.mutate({ name, slug: isSlugEdited ? slug : slugify(name) }, { onSuccess: onCreated });
  }

  return (
    <form onSubmit={submit} className="space-y-4" noValidate>
      <ApiErrorAlert error={mutation.error} shownFields={['name', 'slug']} />
      <Field label="Organization name" error={fieldError(mutation.error, 'name')}>
        <Input value={name} onChange={(event) => setName(event.target.value)} autoComplete="organization" required />
      </Field>
      <Field
        label="Slug"
        hint="Used in URLs; lower-case letters, digits and dashes."
        error={fieldError(mutation.error, 'slug')}
      >
        <Input
          value={isSlugEdited ? slug : slugify(name)}
          onChange={(event) => {
            setIsSlugEdited(true);
            setSlug(event.target.value);
          }}
        />
      </Field>
      <Button type="submit" isPending={mutation.isPending}>
        Create organization
      </Button>
    </form>
  );
}
