import { useState, type FormEvent } from 'react';
import { Alert, ApiErrorAlert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { CopyButton } from '../../../components/ui/copy-button';
import { Dialog, DialogActions } from '../../../components/ui/dialog';
import { Field } from '../../../components/ui/field';
import { Checkbox, Input } from '../../../components/ui/input';
import { Select } from '../../../components/ui/select';
import { fieldError } from '../../../lib/api-error';
import { useCreateOrganizationAccessToken } from '../api/create-organization-access-token';
import { ALL_SCOPES, EXPIRY_OPTIONS, SCOPE_GROUPS, type Scope } from './scopes';

export function CreateOrganizationAccessTokenDialog({ organizationId }: { organizationId: string }) {
  const [open, setOpen] = useState(false);
  const [comment, setComment] = useState('');
  const [expiry, setExpiry] = useState(EXPIRY_OPTIONS[1]!.value);
  const [scopes, setScopes] = useState<Scope[]>([]);
  const [token, setToken] = useState<string | null>(null);
  const mutation = useCreateOrganizationAccessToken();

  function reset(next: boolean) {
    setOpen(next);
    if (!next) {
      setComment('');
      setScopes([]);
      setToken(null);
      mutation.reset();
    }
  }

  function toggle(scope: Scope, checked: boolean) {
    setScopes(checked ? [...scopes, scope] : scopes.filter((item) => item !== scope));
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    mutation.mutate(
      {
        organization_id: organizationId,
        comment,
        scopes,
        expires_in: expiry === 'never' ? null : Number(expiry),
      },
      { onSuccess: (created) => setToken(created.token) },
    );
  }

  return (
    <>
      <Button onClick={() => setOpen(true)}>New access token</Button>
      <Dialog open={open} onOpenChange={reset} title={token ? 'Access token created' : 'New access token'} size="lg">
        {token ? (
          <div className="space-y-4">
            <Alert tone="info" title="Copy this token now: it is shown only once.">
              Store it in your server's secrets. If you lose it, revoke it and create another.
            </Alert>
            <div className="flex flex-wrap items-center gap-2">
              <code
                aria-label="New access token"
                className="min-w-0 flex-1 rounded-md bg-slate-100 px-3 py-2 font-mono text-sm break-all text-slate-900"
              >
                {token}
              </code>
              <CopyButton value={token} label="Copy token" />
            </div>
            <DialogActions>
              <Button onClick={() => reset(false)}>Done</Button>
            </DialogActions>
          </div>
        ) : (
          <form onSubmit={submit} className="space-y-4" noValidate>
            <ApiErrorAlert error={mutation.error} shownFields={['comment', 'scopes', 'expires_in']} />
            <Field
              label="Name"
              hint="What uses this token, e.g. “Production backend”."
              error={fieldError(mutation.error, 'comment')}
            >
              <Input value={comment} onChange={(event) => setComment(event.target.value)} />
            </Field>
            <Field label="Expires after" error={fieldError(mutation.error, 'expires_in')}>
              <Select value={expiry} onValueChange={setExpiry} options={EXPIRY_OPTIONS} />
            </Field>
            <fieldset className="space-y-2">
              <legend className="text-sm font-medium text-slate-800">Scopes</legend>
              <div className="flex gap-2">
                <Button size="sm" variant="secondary" onClick={() => setScopes(ALL_SCOPES)}>
                  Select all scopes
                </Button>
                <Button size="sm" variant="ghost" onClick={() => setScopes([])}>
                  Clear scopes
                </Button>
              </div>
              <div className="grid gap-x-6 gap-y-1 sm:grid-cols-2">
                {SCOPE_GROUPS.map((group) => (
                  <div key={group.label} className="flex flex-wrap items-center gap-x-4 py-1">
                    <span className="w-36 text-sm text-slate-700">{group.label}</span>
                    <Checkbox
                      label={group.read.endsWith(':write') ? 'Write' : 'Read'}
                      aria-label={group.read}
                      checked={scopes.includes(group.read)}
                      onChange={(event) => toggle(group.read, event.target.checked)}
                    />
                    {group.write && (
                      <Checkbox
                        label="Write"
                        aria-label={group.write}
                        checked={scopes.includes(group.write)}
                        onChange={(event) => toggle(group.write!, event.target.checked)}
                      />
                    )}
                  </div>
                ))}
              </div>
              {fieldError(mutation.error, 'scopes') && (
                <p className="text-sm text-red-700">{fieldError(mutation.error, 'scopes')}</p>
              )}
            </fieldset>
            <DialogActions>
              <Button variant="secondary" onClick={() => reset(false)}>
                Cancel
              </Button>
              <Button type="submit" isPending={mutation.isPending}>
                Create token
              </Button>
            </DialogActions>
          </form>
        )}
      </Dialog>
    </>
  );
}
