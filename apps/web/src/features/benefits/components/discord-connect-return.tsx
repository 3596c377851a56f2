import { useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router';
import { Alert } from '../../../components/ui/alert';
import type { SelectOption } from '../../../components/ui/select';
import { useFinishDiscordBot } from '../api/integrations';
import { BenefitFormDialog } from './benefit-form-dialog';

/**
 * The benefits page as Discord sends the seller back from adding the bot (`connect_state`, `code`): the
 * connection is finished once and a new Discord benefit opens with the server filled in.
 */
export function DiscordConnectReturn({
  organizationId,
  meterOptions,
}: {
  organizationId: string;
  meterOptions: readonly SelectOption[];
}) {
  const [params, setParams] = useSearchParams();
  const finish = useFinishDiscordBot();
  const started = useRef(false);
  const state = params.get('connect_state');
  const code = params.get('code');
  useEffect(() => {
    if (!state || started.current) return;
    started.current = true;
    if (code) finish.mutate({ state, code });
    setParams({}, { replace: true });
  }, [state, code, finish, setParams]);

  if (finish.error)
    return (
      <Alert tone="error" title="The Discord server could not be connected">
        {finish.error.message}
      </Alert>
    );
  if (!finish.data) return null;
  return (
    <BenefitFormDialog
      organizationId={organizationId}
      meterOptions={meterOptions}
      trigger={() => null}
      startWith={{
        type: 'discord',
        description: `${finish.data.guild_name} role`.slice(0, 42),
        guildId: finish.data.guild_id,
        guildToken: finish.data.guild_token,
      }}
    />
  );
}
