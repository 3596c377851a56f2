import { useNavigate, useSearchParams } from 'react-router';
import { AuthForm } from '../../../features/auth/components/auth-form';
import { AuthPage, safeNext } from './auth-page';

export function Component() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  return (
    <AuthPage title="Sign in">
      <AuthForm
        mode="sign-in"
        next={params.get('next')}
        onSuccess={() => navigate(safeNext(params.get('next')), { replace: true })}
      />
    </AuthPage>
  );
}
