import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { Alert } from '../../../components/ui/alert';
import { useFinishOAuthConnect } from '../api/connect-oauth-account';

const PLATFORM_NAMES = { discord: 'Discord', github: 'GitHub' } as const;

/**
 * The benefits page as Discord or GitHub sends the customer back (`connect_state`, `code` or
 * `connect_error`): the connection is finished once, the query left out of the address, the outcome said.
 */
export function ConnectReturn() {
  const [params, setParams] = useSearchParams();
  const finish = useFinishOAuthConnect();
  const started = useRef(false);
  const [cancelled, setCancelled] = useState(false);
  const state = params.get('connect_state');
  const code = params.get('code');
  const refused = params.get('connect_error');
  useEffect(() => {
    if (!state || started.current) return;
    started.current = true;
    if (code && !refused) finish.mutate({ state, code });
    else setCancelled(true);
    setParams({}, { replace: true });
  }, [state, code, refused, finish, setParams]);

  if (finish.isSuccess) {
    const { platform, account_username, account_id } = finish.data;
    return (
      <Alert tone="success" title={`Your ${PLATFORM_NAMES[platform]} account is connected`}>
        {account_username ?? account_id} can now be chosen for your benefits below.
      </Alert>
    );
  }
  if (finish.error)
    return (
      <Alert tone="error" title="The account could not be connected">
        {finish.error.message}
      </Alert>
    );
  if (cancelled)
    return (
      <Alert tone="error" title="The account was not connected">
        The authorization was cancelled.
      </Alert>
    );
  return null;
}
