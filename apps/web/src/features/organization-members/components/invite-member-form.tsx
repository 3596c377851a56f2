import { useState, type FormEvent } from 'react';
import { ApiErrorAlert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Field } from '../../../components/ui/field';
import { Input } from '../../../components/ui/input';
import { useToast } from '../../../components/ui/toast';
import { fieldError } from '../../../lib/api-error';
import { useInviteMember } from '../api/invite-member';

/** One address at a time: the invitee gets an email with a link that works once, for seven days. */
export function InviteMemberForm({ organizationId }: { organizationId: string }) {
  const [email, setEmail] = useState('');
  const invite = useInviteMember();
  const toast = useToast();

  function submit(event: FormEvent) {
    event.preventDefault();
    invite.mutate(
      { organizationId, email },
      {
        onSuccess: () => {
          toast(`Invitation sent to ${email}`);
          setEmail('');
        },
      },
    );
  }

  return (
    <form onSubmit={submit} className="space-y-3" noValidate>
      <ApiErrorAlert error={invite.error} shownFields={['email']} />
      <div className="flex flex-wrap items-end gap-3">
        <Field
          label="Email address"
          className="min-w-64 flex-1"
          hint="They receive a link that works once, for seven days."
          error={fieldError(invite.error, 'email')}
        >
          <Input type="email" autoComplete="off" value={email} onChange={(event) => setEmail(event.target.value)} />
        </Field>
        <Button type="submit" isPending={invite.isPending}>
          Send invitation
        </Button>
      </div>
    </form>
  );
}
