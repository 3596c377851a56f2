import { z } from 'zod/v4';

export const CustomerSessionCodeRequest = z
  .object({
    email: z.email({ message: 'Input should be a valid email address' }).max(320),
    organization_id: z.uuid(),
  })
  .meta({ id: 'CustomerSessionCodeRequest' });

export const CustomerSessionCodeAuthenticateRequest = z
  .object({ code: z.string().min(1).max(64) })
  .meta({ id: 'CustomerSessionCodeAuthenticateRequest' });

export const CustomerSessionCodeAuthenticateResponse = z
  .object({ token: z.string() })
  .meta({ id: 'CustomerSessionCodeAuthenticateResponse' });

export const CustomerSessionCodeRequested = z.object({}).meta({ id: 'CustomerSessionCodeRequested' });

export const CustomerSessionKeep = z.object({ token: z.string().min(1).max(256) }).meta({ id: 'CustomerSessionKeep' });

export const CustomerSessionRestore = z.object({ organization_id: z.uuid() }).meta({ id: 'CustomerSessionRestore' });

export const CustomerSessionRestored = z.object({ token: z.string() }).meta({ id: 'CustomerSessionRestored' });
