import { z } from 'zod/v4';
import { DateTime } from '../../platform/http/schemas.js';

export const User = z
  .object({ id: z.uuid(), created_at: DateTime(), modified_at: DateTime().nullable(), email: z.string() })
  .meta({ id: 'User' });

const email = z.email({ message: 'Input should be a valid email address' }).max(320);

export const SignUp = z
  .object({
    email,
    // NIST 800-63B: at least 8 characters, long passphrases allowed.
    password: z.string().min(8, 'Password must be at least 8 characters').max(256),
  })
  .meta({ id: 'SignUp' });

export const SignIn = z.object({ email, password: z.string().min(1).max(256) }).meta({ id: 'SignIn' });
