import { ConnectionError, SDKError } from '@tessera/sdk';
import { client } from '../api-client';

const PATH = '/simulated-processor/payment-intents/authenticate';

/**
 * The buyer's answer to the simulated processor's authentication challenge (its stand-in for 3-D
 * Secure), by the payment's client secret. Like the card form's token route, it belongs to the
 * processor, not to the API contract, so it is called here directly.
 */
export async function authenticateSimulatedPayment(clientSecret: string, approve: boolean): Promise<void> {
  const url = new URL(PATH, client.options.serverURL);
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ client_secret: clientSecret, approve }),
    });
  } catch (cause) {
    throw new ConnectionError({ cause });
  }
  const body = await response.text();
  if (response.status !== 200) throw new SDKError(`API error occurred: Status ${response.status}`, { response, body });
}
