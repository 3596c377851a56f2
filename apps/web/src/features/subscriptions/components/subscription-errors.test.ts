import { AlreadyCanceledSubscription, BadRequest, ConnectionError, SDKError } from '@tessera/sdk';
import { describe, expect, it } from 'vitest';
import { describeError } from '../../../lib/api-error';
import { explainSubscriptionError } from './subscription-errors';

function meta(status: number) {
  return { response: new Response(null, { status }), body: '' };
}

const words = (error: unknown) => describeError(error).message;

describe('explainSubscriptionError', () => {
  it('keeps the API’s own words when they fit the action', () => {
    const error = new AlreadyCanceledSubscription(meta(403), {
      error: 'AlreadyCanceledSubscription',
      detail: 'This subscription is already canceled or will be at the end of the period.',
    });
    expect(words(explainSubscriptionError(error, 'revoke'))).toBe(
      'This subscription is already canceled or will be at the end of the period.',
    );
  });

  it('says why a product cannot be changed', () => {
    const error = new AlreadyCanceledSubscription(meta(403), { error: 'AlreadyCanceledSubscription', detail: 'x' });
    expect(words(explainSubscriptionError(error, 'change-product'))).toMatch(/cannot be changed/);
  });

  it('words the bare refusals of a resume', () => {
    const bad = new BadRequest(meta(400), { error: 'BadRequest', detail: 'Bad request' });
    expect(words(explainSubscriptionError(bad, 'uncancel'))).toMatch(/^Only an active subscription set to cancel/);
    const gone = new SDKError('API error occurred: Status 410', meta(410));
    expect(words(explainSubscriptionError(gone, 'uncancel'))).toMatch(/already ended/);
  });

  it('passes other errors through', () => {
    const error = new ConnectionError();
    expect(explainSubscriptionError(error, 'cancel')).toBe(error);
    expect(explainSubscriptionError(null, 'cancel')).toBeNull();
  });
});
