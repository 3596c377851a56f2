/** A scope in plain words, for the consent page ("products:write" → "Create and change products"). */
export function scopeInWords(scope: string): string {
  const fixed: Record<string, string> = {
    openid: 'Know who you are',
    profile: 'See your profile',
    email: 'See your email address',
    'user:read': 'See your account',
    'customer_sessions:write': 'Open customer portal sessions',
    'payments:read': 'See payments',
    'metrics:read': 'See sales metrics',
    'customer_meters:read': 'See customers’ usage',
    'external_organizations:read': 'See linked organizations',
  };
  if (fixed[scope]) return fixed[scope];
  const [resource, access] = scope.split(':');
  const noun = (resource ?? scope).replace(/_/g, ' ');
  return access === 'write' ? `Create and change ${noun}` : `See ${noun}`;
}
