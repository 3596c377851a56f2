import { useNavigate, useSearchParams } from 'react-router';
import { AuthForm } from '../../../features/auth/components/auth-form';
import { AuthPage, safeNext } from './auth-page';

export function Component() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  // A new account goes on to create its organization, unless it came to accept an invitation (`next`).
  const next = params.get('next');
  return (
    <AuthPage title="Create your account">
      <AuthForm
        mode="sign-up"
        next={next}
        onSuccess={() => navigate(next ? safeNext(next) : '/dashboard/new', { replace: true })}
      />
    </AuthPage>
  );
}
