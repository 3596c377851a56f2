import { ConnectionError, HTTPValidationError, namedErrorClass, SDKError, type ValidationIssue } from '@tessera/sdk';
import { client } from '../../../lib/api-client';

/**
 * Email-code sign-in to the portal. The two calls are the portal's own (private in the contract, as in
 * the reference), so they are made here directly; failures are thrown as the SDK's errors so they read
 * like every other API error.
 */
async function post(path: string, body: object): Promise<Record<string, unknown>> {
  let response: Response;
  try {
    response = await fetch(new URL(path, client.options.serverURL), {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
    });
  } catch (cause) {
    throw new ConnectionError({ cause });
  }
  const text = await response.text();
  let json: Record<string, unknown> = {};
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // Not JSON: reported below by status.
  }
  if (response.ok) return json;
  const meta = { response, body: text };
  if (response.status === 422 && Array.isArray(json.detail))
    throw new HTTPValidationError(meta, json.detail as ValidationIssue[]);
  if (typeof json.error === 'string' && typeof json.detail === 'string') {
    const NamedError = namedErrorClass(json.error);
    throw new NamedError(meta, json as { error: string; detail: string });
  }
  throw new SDKError(`API error occurred: Status ${response.status}`, meta);
}

/** Sends a sign-in code to the address when it is a customer's (the answer is the same either way). */
export async function requestSignInCode(organizationId: string, email: string): Promise<void> {
  await post('/v1/customer-portal/customer-session/request', { email, organization_id: organizationId });
}

/** Exchanges a code for a customer session token. */
export async function signInWithCode(code: string): Promise<string> {
  const json = await post('/v1/customer-portal/customer-session/authenticate', { code });
  return json.token as string;
}
