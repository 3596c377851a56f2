import type * as OidcProvider from 'oidc-provider';

/**
 * oidc-provider, loaded without its import-time notice. The library warns on every runtime older than
 * Node.js 22 LTS; Tessera supports Node.js 20 (its whole OAuth2 suite runs there), and that line on stderr
 * would break commands whose output is read by scripts. Only that notice is dropped.
 */
const warn = console.warn;
console.warn = (...args: unknown[]) => {
  if (typeof args[0] === 'string' && args[0].includes('oidc-provider WARNING: Unsupported runtime')) return;
  warn(...args);
};
let oidc: typeof OidcProvider;
try {
  oidc = await import('oidc-provider');
} finally {
  console.warn = warn;
}

export const Provider: typeof OidcProvider.default = oidc.default;
export type Provider = OidcProvider.default;
export const errors: typeof OidcProvider.errors = oidc.errors;
