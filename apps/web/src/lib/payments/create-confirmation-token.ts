import { useMutation } from '@tanstack/react-query';
import { ConnectionError, HTTPValidationError, namedErrorClass, SDKError, type ValidationIssue } from '@tessera/sdk';
import { client } from '../api-client';
import { confirmationTokenBody, type CardEntry } from './card';

const PATH = '/simulated-processor/confirmation-tokens';

function parse(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/**
 * Turns a card into a single-use confirmation token at the simulated card processor, the way Stripe.js
 * does at Stripe. The route belongs to the processor, not to the API contract, so it is not in the
 * SDK: it is called here directly, and its failures are thrown as the SDK's own errors so they read
 * like every other API error (a 422 names `card.number`, `card.exp_month`, `card.exp_year`, `card.cvc`).
 */
export async function createConfirmationToken(card: CardEntry): Promise<string> {
  const url = new URL(PATH, client.options.serverURL);
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(confirmationTokenBody(card)),
    });
  } catch (cause) {
    throw new ConnectionError({ cause });
  }
  const text = await response.text();
  const meta = { response, body: text };
  const json = parse(text);
  if (response.status === 201 && typeof json?.id === 'string') return json.id;
  // The simulated processor's route exists only while that processor is the server's.
  if (response.status === 404)
    throw new Error('Card payments are not available right now: the seller’s payment setup is incomplete.');
  if (response.status === 422 && Array.isArray(json?.detail))
    throw new HTTPValidationError(meta, json.detail as ValidationIssue[]);
  if (typeof json?.error === 'string' && typeof json.detail === 'string') {
    const NamedError = namedErrorClass(json.error);
    throw new NamedError(meta, json as { error: string; detail: string });
  }
  throw new SDKError(`API error occurred: Status ${response.status}`, meta);
}

export function useCreateConfirmationToken() {
  return useMutation({ mutationFn: createConfirmationToken });
}
