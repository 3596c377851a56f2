import { ADDRESS, CARDS, confirmationToken } from '../../api/test/factories/checkouts.js';
import { bearer, json, type TestServer } from '../../api/test/harness.js';

/** An API call the test expects to succeed: its JSON answer, or an error naming the status and the body. */
export async function apiJson(
  server: TestServer,
  method: 'POST' | 'GET' | 'PATCH',
  url: string,
  headers: Record<string, string>,
  payload?: object,
): Promise<any> {
  const response = await server.inject({ method, url, headers, payload });
  if (response.statusCode >= 300) throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`);
  return json(response);
}

/** A purchase as the hosted checkout makes it; answers the confirm's status (a declined card is 4xx). */
export async function purchase(
  server: TestServer,
  token: string,
  productId: string,
  buyer: { email: string; name: string },
  card: string = CARDS.visa,
): Promise<number> {
  const checkout = await apiJson(server, 'POST', '/v1/checkouts/', bearer(token), { products: [productId] });
  const response = await server.inject({
    method: 'POST',
    url: `/v1/checkouts/client/${checkout.client_secret}/confirm`,
    payload: {
      customer_email: buyer.email,
      customer_name: buyer.name,
      customer_billing_address: ADDRESS,
      confirmation_token_id: await confirmationToken(server, card),
    },
  });
  return response.statusCode;
}
