import { ExpiredCheckoutError, NotOpenCheckout, ResourceNotFound, ConnectionError } from '@tessera/sdk';
import { describe, expect, it } from 'vitest';
import { isCheckoutGone, unavailableConfirmation, unavailableError, unavailableStatus } from './status';

const meta = (status: number) => ({ response: new Response(null, { status }), body: '' });
const named = (error: string, detail: string) => ({ error, detail });

describe('unavailableStatus', () => {
  it('explains expired and failed checkouts, and nothing else', () => {
    expect(unavailableStatus('expired')?.title).toBe('This checkout has expired');
    expect(unavailableStatus('failed')?.title).toBe('This checkout could not be completed');
    expect(unavailableStatus('open')).toBeNull();
    expect(unavailableStatus('succeeded')).toBeNull();
  });
});

describe('unavailableError', () => {
  it('words the API’s answers', () => {
    const expired = new ExpiredCheckoutError(
      meta(410),
      named('ExpiredCheckoutError', 'This checkout session has expired.'),
    );
    expect(unavailableError(expired)).toMatchObject({ title: 'This checkout has expired', canRetry: false });
    const missing = new ResourceNotFound(meta(404), named('ResourceNotFound', 'Not found'));
    expect(unavailableError(missing)).toMatchObject({ title: 'Checkout not found', canRetry: false });
    expect(unavailableError(new ConnectionError())).toEqual({
      title: 'The checkout could not be loaded',
      description: 'The server could not be reached. Check your connection and try again.',
      canRetry: true,
    });
  });

  it('does not call a paid checkout whose time is over lost', () => {
    const expired = new ExpiredCheckoutError(
      meta(410),
      named('ExpiredCheckoutError', 'This checkout session has expired.'),
    );
    expect(unavailableConfirmation(expired).title).toBe('This checkout is closed');
  });
});

describe('isCheckoutGone', () => {
  it('is true when the checkout expired or is no longer open', () => {
    expect(
      isCheckoutGone(new NotOpenCheckout(meta(403), named('NotOpenCheckout', 'Checkout x is not open: succeeded'))),
    ).toBe(true);
    expect(isCheckoutGone(new ConnectionError())).toBe(false);
  });
});
