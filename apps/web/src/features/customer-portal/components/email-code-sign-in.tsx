import { useState, type FormEvent } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { Button } from '../../../components/ui/button';
import { Field } from '../../../components/ui/field';
import { Input } from '../../../components/ui/input';
import { describeError } from '../../../lib/api-error';
import { requestSignInCode, signInWithCode } from '../api/sign-in-with-code';
import { SESSION_TOKEN_PARAM } from '../session/session-token';

export interface EmailCodeSignInProps {
  organizationId: string;
  slug: string;
}

/**
 * Sign-in without a link: the customer's email address receives a code, and the code opens a session
 * (taken in as a session link's token is).
 */
export function EmailCodeSignIn({ organizationId, slug }: EmailCodeSignInProps) {
  const navigate = useNavigate();
  const location = useLocation();
  const [email, setEmail] = useState('');
  const [code, setCode] = useState('');
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string>();

  async function run(work: () => Promise<void>) {
    setPending(true);
    setError(undefined);
    try {
      await work();
    } catch (caught) {
      setError(describeError(caught).message);
    } finally {
      setPending(false);
    }
  }

  function requestCode(event: FormEvent) {
    event.preventDefault();
    const address = email.trim();
    if (!address.includes('@')) {
      setError('Enter your email address.');
      return;
    }
    void run(async () => {
      await requestSignInCode(organizationId, address);
      setSentTo(address);
    });
  }

  function submitCode(event: FormEvent) {
    event.preventDefault();
    if (code.trim() === '') {
      setError('Enter the code from the email.');
      return;
    }
    void run(async () => {
      const token = await signInWithCode(code);
      const search = new URLSearchParams({ [SESSION_TOKEN_PARAM]: token });
      // Back to the page asked for (a link from an email: an order, the payment methods), signed in.
      const home = `/portal/${encodeURIComponent(slug)}`;
      const path = location.pathname.startsWith(home) ? location.pathname : home;
      navigate(`${path}?${search.toString()}`, { replace: true });
    });
  }

  return (
    <section
      aria-labelledby="email-code-sign-in"
      className="mx-auto mt-6 max-w-lg rounded-lg border border-slate-200 bg-white px-6 py-8 shadow-sm"
    >
      <h2 id="email-code-sign-in" className="text-lg font-semibold text-slate-900">
        Sign in with your email
      </h2>
      {sentTo === null ? (
        <form onSubmit={requestCode} noValidate className="mt-4 space-y-4">
          <p className="text-sm text-slate-700">We send a sign-in code to the email address you bought with.</p>
          <Field label="Email address" error={error}>
            <Input type="email" autoComplete="email" value={email} onChange={(event) => setEmail(event.target.value)} />
          </Field>
          <Button type="submit" isPending={pending}>
            Send me a code
          </Button>
        </form>
      ) : (
        <form onSubmit={submitCode} noValidate className="mt-4 space-y-4">
          <p role="status" className="text-sm text-slate-700">
            If {sentTo} is a customer’s address, a code is on its way. It works once, for 30 minutes.
          </p>
          <Field label="Sign-in code" error={error}>
            <Input
              autoComplete="one-time-code"
              autoCapitalize="characters"
              value={code}
              onChange={(event) => setCode(event.target.value)}
            />
          </Field>
          <div className="flex flex-wrap gap-2">
            <Button type="submit" isPending={pending}>
              Sign in
            </Button>
            <Button
              type="button"
              variant="secondary"
              onClick={() => {
                setSentTo(null);
                setCode('');
                setError(undefined);
              }}
            >
              Use another address
            </Button>
          </div>
        </form>
      )}
    </section>
  );
}
