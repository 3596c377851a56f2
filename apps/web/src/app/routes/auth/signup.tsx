import { useNavigate } from 'react-router';
import { AuthForm } from '../../../features/auth/components/auth-form';
import { AuthPage } from './auth-page';

export function Component() {
  const navigate = useNavigate();
  return (
    <AuthPage title="Create your account">
      <AuthForm mode="sign-up" onSuccess={() => navigate('/dashboard/new', { replace: true })} />
    </AuthPage>
  );
}
