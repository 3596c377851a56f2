import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { Button } from '../../../components/ui/button';
import { Card, CardTitle } from '../../../components/ui/card';
import { Field } from '../../../components/ui/field';
import { Input } from '../../../components/ui/input';
import { PageHeader } from '../../../components/ui/page-header';
import { scopeInWords } from '../oauth2/scope-words';

/**
 * Developers → OAuth apps (the apps this user registered: create, edit, rotate the secret, delete) and
 * Connected apps (what this user granted to apps, and revoking it). These are OAuth's own calls
 * (docs/oauth2.md), called directly. A client secret is kept only as its hash: it is shown once, when
 * the app is created or its secret rotated.
 */
interface OAuthApp {
  client_id: string;
  client_secret: string;
  client_name: string;
  redirect_uris: string[];
  created_at: string;
}

interface Grant {
  id: string;
  client: { client_id: string; client_name: string | null };
  sub_type: 'user' | 'organization';
  scopes: string[];
}

async function call<T>(method: string, url: string, body?: unknown): Promise<T> {
  const response = await fetch(url, {
    method,
    credentials: 'same-origin',
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) {
    const error = (await response.json().catch(() => ({}))) as { error_description?: string };
    throw new Error(error.error_description ?? `The request failed (${response.status}).`);
  }
  return (response.status === 204 ? undefined : await response.json()) as T;
}

function uris(text: string): string[] {
  return text
    .split(/[\s,]+/)
    .map((uri) => uri.trim())
    .filter(Boolean);
}

export function Component() {
  const [apps, setApps] = useState<OAuthApp[]>([]);
  const [grants, setGrants] = useState<Grant[]>([]);
  const [error, setError] = useState<string>();
  const [name, setName] = useState('');
  const [redirects, setRedirects] = useState('');
  const [editing, setEditing] = useState<string>();
  const [editName, setEditName] = useState('');
  const [editRedirects, setEditRedirects] = useState('');
  const [issued, setIssued] = useState<{ name: string; secret: string }>();

  const reload = useCallback(async () => {
    const [list, granted] = await Promise.all([
      call<{ items: OAuthApp[] }>('GET', '/v1/oauth2/?limit=100'),
      call<{ items: Grant[] }>('GET', '/v1/oauth2/grants'),
    ]);
    setApps(list.items);
    setGrants(granted.items);
  }, []);

  useEffect(() => {
    reload().catch((caught: Error) => setError(caught.message));
  }, [reload]);

  async function run(action: () => Promise<unknown>) {
    setError(undefined);
    try {
      await action();
      await reload();
    } catch (caught) {
      setError((caught as Error).message);
    }
  }

  function create(event: FormEvent) {
    event.preventDefault();
    void run(async () => {
      const created = await call<OAuthApp>('POST', '/v1/oauth2/register', {
        client_name: name,
        redirect_uris: uris(redirects),
      });
      setIssued({ name: created.client_name, secret: created.client_secret });
      setName('');
      setRedirects('');
    });
  }

  function save(event: FormEvent, app: OAuthApp) {
    event.preventDefault();
    void run(async () => {
      await call('PUT', `/v1/oauth2/register/${app.client_id}`, {
        client_id: app.client_id,
        client_name: editName,
        redirect_uris: uris(editRedirects),
      });
      setEditing(undefined);
    });
  }

  return (
    <>
      <PageHeader
        title="OAuth apps"
        description="Apps you build that act for Tessera users, and the apps you let act for you."
      />
      {error ? (
        <p role="alert" className="mb-4 text-sm text-red-700">
          {error}
        </p>
      ) : null}
      <div className="space-y-6">
        {issued ? (
          <Card role="status" aria-label="New client secret">
            <CardTitle>Client secret of {issued.name}</CardTitle>
            <p className="mt-2 text-sm text-slate-600">
              Copy it now: it is not shown again. Rotate the secret if it is lost.
            </p>
            <p className="mt-3 font-mono text-sm break-all text-slate-900">{issued.secret}</p>
            <Button className="mt-3" size="sm" variant="secondary" onClick={() => setIssued(undefined)}>
              Done
            </Button>
          </Card>
        ) : null}
        <Card>
          <CardTitle>New app</CardTitle>
          <form onSubmit={create} className="mt-4 grid gap-4 sm:grid-cols-2">
            <Field label="App name">
              <Input value={name} onChange={(event) => setName(event.target.value)} required />
            </Field>
            <Field label="Redirect URIs" hint="https, or http for localhost; separate several with spaces">
              <Input value={redirects} onChange={(event) => setRedirects(event.target.value)} required />
            </Field>
            <div>
              <Button type="submit">Create app</Button>
            </div>
          </form>
        </Card>

        <Card>
          <CardTitle>Your apps</CardTitle>
          {apps.length === 0 ? <p className="mt-3 text-sm text-slate-600">No apps yet.</p> : null}
          <ul className="mt-3 divide-y divide-slate-200" aria-label="Your apps">
            {apps.map((app) => (
              <li key={app.client_id} className="space-y-2 py-4">
                {editing === app.client_id ? (
                  <form onSubmit={(event) => save(event, app)} className="grid gap-3 sm:grid-cols-2">
                    <Field label="App name">
                      <Input value={editName} onChange={(event) => setEditName(event.target.value)} required />
                    </Field>
                    <Field label="Redirect URIs">
                      <Input
                        value={editRedirects}
                        onChange={(event) => setEditRedirects(event.target.value)}
                        required
                      />
                    </Field>
                    <div className="flex gap-2">
                      <Button type="submit" size="sm">
                        Save
                      </Button>
                      <Button type="button" size="sm" variant="secondary" onClick={() => setEditing(undefined)}>
                        Cancel
                      </Button>
                    </div>
                  </form>
                ) : (
                  <>
                    <p className="font-medium text-slate-900">{app.client_name}</p>
                    <dl className="grid gap-1 text-xs text-slate-600 sm:grid-cols-[10rem_1fr]">
                      <dt>Client ID</dt>
                      <dd className="font-mono break-all">{app.client_id}</dd>
                      <dt>Client secret</dt>
                      <dd>Shown once, when created or rotated</dd>
                      <dt>Redirect URIs</dt>
                      <dd className="break-all">{app.redirect_uris.join(' ')}</dd>
                    </dl>
                    <div className="flex flex-wrap gap-2">
                      <Button
                        size="sm"
                        variant="secondary"
                        onClick={() => {
                          setEditing(app.client_id);
                          setEditName(app.client_name);
                          setEditRedirects(app.redirect_uris.join(' '));
                        }}
                      >
                        Edit {app.client_name}
                      </Button>
                      <Button
                        size="sm"
                        variant="secondary"
                        onClick={() =>
                          void run(async () => {
                            const rotated = await call<OAuthApp>('POST', `/v1/oauth2/register/${app.client_id}/secret`);
                            setIssued({ name: rotated.client_name, secret: rotated.client_secret });
                          })
                        }
                      >
                        Rotate secret of {app.client_name}
                      </Button>
                      <Button
                        size="sm"
                        variant="danger"
                        onClick={() => void run(() => call('DELETE', `/v1/oauth2/register/${app.client_id}`))}
                      >
                        Delete {app.client_name}
                      </Button>
                    </div>
                  </>
                )}
              </li>
            ))}
          </ul>
        </Card>

        <Card>
          <CardTitle>Connected apps</CardTitle>
          {grants.length === 0 ? <p className="mt-3 text-sm text-slate-600">You have not authorized any app.</p> : null}
          <ul className="mt-3 divide-y divide-slate-200" aria-label="Connected apps">
            {grants.map((grant) => {
              const appName = grant.client.client_name ?? grant.client.client_id;
              return (
                <li key={grant.id} className="flex flex-wrap items-start justify-between gap-3 py-4">
                  <div>
                    <p className="font-medium text-slate-900">{appName}</p>
                    <p className="text-xs text-slate-600">
                      {grant.sub_type === 'organization' ? 'For an organization' : 'As you'}:{' '}
                      {grant.scopes.map(scopeInWords).join(', ')}
                    </p>
                  </div>
                  <Button
                    size="sm"
                    variant="danger"
                    onClick={() => void run(() => call('DELETE', `/v1/oauth2/grants/${grant.id}`))}
                  >
                    Revoke {appName}
                  </Button>
                </li>
              );
            })}
          </ul>
        </Card>
      </div>
    </>
  );
}
