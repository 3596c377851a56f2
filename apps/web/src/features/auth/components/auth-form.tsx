import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { ApiErrorAlert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Field } from '../../../components/ui/field';
import { Input } from '../../../components/ui/input';
import { fieldError } from '../../../lib/api-error';
import { useSignIn } from '../api/sign-in';
import { useSignUp } from '../api/sign-up';

export interface AuthFormProps {
  mode: 'sign-in' | 'sign-up';
  /** Where to go after signing in or up, carried over to the other form's link. */
  next?: string | null;
  onSuccess(): void;
}

/** Sign in and sign up share one form: email and password, errors from the API next to the fields. */
export function AuthForm({ mode, next, onSuccess }: AuthFormProps) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const signIn = useSignIn();
  const signUp = useSignUp();
  const mutation = mode === 'sign-in' ? signIn : signUp;
  const isSignUp = mode === 'sign-up';

  function submit(event: FormEvent) {
    event.preventDefault();
    mutation.mutate({ email, password }, { onSuccess });
  }

  return (
    <form onSubmit={submit} className="space-y-4" noValidate>
      <ApiErrorAlert error={mutation.error} shownFields={['email', 'password']} />
      <Field label="Email" error={fieldError(mutation.error, 'email')}>
        <Input
          type="email"
          autoComplete="email"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          required
        />
      </Field>
      <Field
        label="Password"
        hint={isSignUp ? 'At least 8 characters.' : undefined}
        error={fieldError(mutation.error, 'password')}
      >
        <Input
          type="password"
          autoComplete={isSignUp ? 'new-password' : 'current-password'}
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          required
        />
      </Field>
      <Button type="submit" className="w-full" isPending={mutation.isPending}>
        {isSignUp ? 'Create account' : 'Sign in'}
      </Button>
      <p className="text-center text-sm text-slate-700">
        {isSignUp ? 'Already have an account? ' : 'New to Tessera? '}
        <Link
          className="font-medium text-blue-800 underline"
          to={`${isSignUp ? '/login' : '/signup'}${next ? `?next=${encodeURIComponent(next)}` : ''}`}
        >
          {isSignUp ? 'Sign in' : 'Create an account'}
        </Link>
      </p>
    </form>
  );
}
