import type {
  CustomerBenefitGrantDiscord,
  CustomerBenefitGrantGitHubRepository,
  CustomerPortalCustomer,
} from '@tessera/sdk';
import { useState } from 'react';
import { ApiErrorAlert, Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Field } from '../../../components/ui/field';
import { Select } from '../../../components/ui/select';
import { useStartOAuthConnect } from '../api/connect-oauth-account';
import { useChooseGrantAccount } from '../api/update-benefit-grant';
import { accountsOf, PLATFORM } from '../logic/benefit-grants';
import { usePortalSession } from '../session/portal-session';

/**
 * Which of the customer's Discord or GitHub accounts a grant goes to: choose one of the connected
 * accounts, or connect one (the browser goes to the provider and comes back to the benefits page).
 */
export function GrantAccountChooser({
  grant,
  customer,
}: {
  grant: CustomerBenefitGrantDiscord | CustomerBenefitGrantGitHubRepository;
  customer: CustomerPortalCustomer;
}) {
  const { slug } = usePortalSession();
  const platform = PLATFORM[grant.benefit.type];
  const accounts = accountsOf(customer, platform.account);
  const current = grant.properties.account_id;
  // Until the customer picks one: the grant's account, else the first connected (accounts arrive later).
  const [picked, setChoice] = useState('');
  const choice = picked || current || accounts[0]?.account_id || '';
  const choose = useChooseGrantAccount();
  const connect = useStartOAuthConnect();
  const unchanged = choice === current;
  return (
    <div className="mt-4 space-y-3">
      {accounts.length > 0 && (
        <div className="flex flex-wrap items-end gap-2">
          <Field label={`${platform.name} account`} className="min-w-56">
            <Select
              value={choice}
              onValueChange={setChoice}
              options={accounts.map((account) => ({
                value: account.account_id,
                label: account.account_username ?? account.account_id,
              }))}
            />
          </Field>
          <Button
            disabled={!choice || (unchanged && grant.is_granted)}
            isPending={choose.isPending}
            onClick={() => choose.mutate({ id: grant.id, type: grant.benefit.type, accountId: choice })}
          >
            {current ? 'Use this account' : 'Give access to this account'}
          </Button>
        </div>
      )}
      <Button
        variant="secondary"
        isPending={connect.isPending}
        onClick={() => connect.mutate({ platform: platform.account, returnTo: `/portal/${slug}/benefits` })}
      >
        {accounts.length > 0 ? `Connect another ${platform.name} account` : `Connect ${platform.name}`}
      </Button>
      {choose.isSuccess && !grant.is_granted && (
        <Alert tone="info" title="Access is on its way">
          It usually takes a few seconds.
        </Alert>
      )}
      {choose.error && <ApiErrorAlert error={choose.error} />}
      {connect.error && (
        <Alert tone="error" title="Could not connect">
          {connect.error.message}
        </Alert>
      )}
    </div>
  );
}
