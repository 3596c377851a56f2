import type * as OidcProvider from 'oidc-provider';

export type Provider = OidcProvider.default;
export type OidcModule = typeof OidcProvider;

let loading: Promise<OidcModule> | undefined;

/**
 * oidc-provider, loaded at the first OAuth2 request rather than at every start (with its Koa stack it
 * is one of the heaviest modules of the server), and without its import-time notice. The library warns
 * on every runtime older than Node.js 22 LTS; Tessera supports Node.js 20 (its whole OAuth2 suite runs
 * there), and that line on stderr would break commands whose output is read by scripts. Only that
 * notice is dropped.
 */
export function loadOidcProvider(): Promise<OidcModule> {
  loading ??= (async () => {
    const warn = console.warn;
    console.warn = (...args: unknown[]) => {
      if (typeof args[0] === 'string' && args[0].includes('oidc-provider WARNING: Unsupported runtime')) return;
      warn(...args);
    };
    try {
      return await import('oidc-provider');
    } finally {
      console.warn = warn;
    }
  })();
  loading.catch(() => (loading = undefined));
  return loading;
}
