import { useEffect, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { Button } from '../../../components/ui/button';
import { AuthPage } from '../auth/auth-page';
import { scopeInWords } from './scope-words';

interface AuthorizeClient {
  client_id: string;
  client_name: string | null;
  client_uri: string | null;
  logo_uri: string | null;
  tos_uri: string | null;
  policy_uri: string | null;
}

interface AuthorizeInfo {
  client: AuthorizeClient;
  sub_type: 'user' | 'organization';
  sub: { id: string; email: string } | null;
  scopes: string[];
  organizations?: { id: string; slug: string; avatar_url: string | null }[];
}

type State =
  { kind: 'loading' } | { kind: 'error'; message: string } | { kind: 'ready'; info: AuthorizeInfo; signedIn: boolean };

/**
 * The OAuth2 consent page: the authorization server sends the browser here with the request's `uid`.
 * Allow and deny are a plain form post to the API, which redirects the browser back to the app.
 */
export function Component() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const uid = params.get('uid') ?? '';
  const [state, setState] = useState<State>({ kind: 'loading' });
  const [organization, setOrganization] = useState('');

  useEffect(() => {
    let cancelled = false;
    void (async () => {
      const [info, me] = await Promise.all([
        fetch(`/v1/oauth2/authorize?uid=${encodeURIComponent(uid)}`, { credentials: 'same-origin' }),
        fetch('/v1/auth/me', { credentials: 'same-origin' }),
      ]);
      if (cancelled) return;
      if (!info.ok) {
        const body = (await info.json().catch(() => ({}))) as { error_description?: string };
        setState({ kind: 'error', message: body.error_description ?? 'This authorization request is not valid.' });
        return;
      }
      if (me.status === 401) {
        navigate(`/login?next=${encodeURIComponent(`/oauth2/authorize?uid=${uid}`)}`, { replace: true });
        return;
      }
      const body = (await info.json()) as AuthorizeInfo;
      setOrganization(body.organizations?.[0]?.id ?? '');
      setState({ kind: 'ready', info: body, signedIn: true });
    })();
    return () => {
      cancelled = true;
    };
  }, [uid, navigate]);

  if (state.kind === 'loading') return <AuthPage title="Authorize">Loading…</AuthPage>;
  if (state.kind === 'error') {
    return (
      <AuthPage title="Authorize">
        <p role="alert" className="text-sm text-red-700">
          {state.message}
        </p>
      </AuthPage>
    );
  }
  const { info } = state;
  const name = info.client.client_name ?? info.client.client_id;
  const forOrganization = info.sub_type === 'organization';
  const noOrganization = forOrganization && (info.organizations ?? []).length === 0;
  return (
    <AuthPage title={`Authorize ${name}`}>
      <form method="post" action="/v1/oauth2/consent" className="space-y-5">
        <input type="hidden" name="uid" value={uid} />
        <div className="flex items-center gap-3">
          {info.client.logo_uri ? <img src={info.client.logo_uri} alt="" className="h-10 w-10 rounded" /> : null}
          <p className="text-sm text-slate-700">
            <strong>{name}</strong> asks to act {forOrganization ? 'for one of your organizations' : 'as you'}
            {info.sub ? ` (${info.sub.email})` : ''}.
          </p>
        </div>
        {forOrganization ? (
          <fieldset className="space-y-2">
            <legend className="text-sm font-medium text-slate-900">Organization</legend>
            {noOrganization ? <p className="text-sm text-slate-600">You belong to no organization yet.</p> : null}
            {(info.organizations ?? []).map((org) => (
              <label key={org.id} className="flex items-center gap-2 text-sm">
                <input
                  type="radio"
                  name="sub"
                  value={org.id}
                  checked={organization === org.id}
                  onChange={() => setOrganization(org.id)}
                />
                {org.slug}
              </label>
            ))}
          </fieldset>
        ) : null}
        <div>
          <p className="text-sm font-medium text-slate-900">It will be able to:</p>
          <ul className="mt-2 list-disc space-y-1 pl-5 text-sm text-slate-700" aria-label="Permissions">
            {info.scopes.map((scope) => (
              <li key={scope}>{scopeInWords(scope)}</li>
            ))}
          </ul>
        </div>
        <p className="space-x-3 text-xs text-slate-500">
          {info.client.client_uri ? (
            <a href={info.client.client_uri} rel="noreferrer noopener" target="_blank" className="underline">
              Website
            </a>
          ) : null}
          {info.client.tos_uri ? (
            <a href={info.client.tos_uri} rel="noreferrer noopener" target="_blank" className="underline">
              Terms
            </a>
          ) : null}
          {info.client.policy_uri ? (
            <a href={info.client.policy_uri} rel="noreferrer noopener" target="_blank" className="underline">
              Privacy policy
            </a>
          ) : null}
        </p>
        <div className="flex gap-3">
          <Button type="submit" name="action" value="deny" variant="secondary" className="flex-1">
            Deny
          </Button>
          <Button type="submit" name="action" value="allow" className="flex-1" disabled={noOrganization}>
            Allow
          </Button>
        </div>
      </form>
    </AuthPage>
  );
}
