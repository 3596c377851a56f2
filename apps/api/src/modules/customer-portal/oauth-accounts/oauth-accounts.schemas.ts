import { z } from 'zod/v4';

export const CustomerOAuthPlatform = z.enum(['discord', 'github']).meta({ id: 'CustomerOAuthPlatform' });

/** As the reference: `platform`, `customer_id` (the session's own), `return_to` (a path of the portal). */
export const OAuthAccountAuthorizeQuery = z.object({
  platform: CustomerOAuthPlatform,
  customer_id: z.uuid().optional(),
  return_to: z
    .string()
    .max(2000)
    .regex(/^\/portal\/[^/?#]+(?:[/?#].*)?$/, 'Must be a path of the customer portal.')
    .optional(),
});

export const AuthorizeResponse = z.object({ url: z.string() }).meta({ id: 'CustomerOAuthAccountAuthorizeResponse' });

export const OAuthAccountCallback = z
  .strictObject({
    state: z.string().min(1).max(200),
    code: z.string().min(1).max(2000),
  })
  .meta({ id: 'CustomerOAuthAccountCallback' });

export const CustomerOAuthAccountConnected = z
  .object({
    platform: CustomerOAuthPlatform,
    account_id: z.string(),
    account_username: z.string().nullable(),
  })
  .meta({ id: 'CustomerOAuthAccountConnected' });

export const OAuthAccountParams = z.object({ platform: CustomerOAuthPlatform, account_id: z.string().min(1).max(64) });
