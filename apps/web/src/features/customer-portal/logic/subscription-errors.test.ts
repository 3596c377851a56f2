import { AlreadyCanceledSubscription, BadRequest, ConnectionError, namedErrorClass, SDKError } from '@tessera/sdk';
import { describe, expect, it } from 'vitest';
import { describeError } from '../../../lib/api-error';
import { explainSubscriptionError } from './subscription-errors';

function meta(status: number) {
  return { response: new Response(null, { status }), body: '' };
}

const words = (error: unknown) => describeError(error).message;

describe('explainSubscriptionError', () => {
  it('says the seller does not allow plan changes, and whom to contact', () => {
    const NotAllowed = namedErrorClass('UpdateSubscriptionNotAllowed');
    const error = new NotAllowed(meta(403), {
      error: 'UpdateSubscriptionNotAllowed',
      detail: 'Updating subscription is not allowed.',
    });
    expect(words(explainSubscriptionError(error, 'change-plan', 'Acme'))).toBe(
      'Acme does not let customers change plans here. Contact them to change your plan.',
    );
  });

  it('words an already canceled subscription for the action tried', () => {
    const error = new AlreadyCanceledSubscription(meta(403), { error: 'AlreadyCanceledSubscription', detail: 'x' });
    expect(words(explainSubscriptionError(error, 'cancel', 'Acme'))).toMatch(/already canceled/);
    expect(words(explainSubscriptionError(error, 'change-plan', 'Acme'))).toMatch(/plan cannot be changed/);
  });

  it('words the bare refusals of a resume', () => {
    const bad = new BadRequest(meta(400), { error: 'BadRequest', detail: 'Bad request' });
    expect(words(explainSubscriptionError(bad, 'uncancel', 'Acme'))).toMatch(/^Only an active subscription/);
    const gone = new SDKError('API error occurred: Status 410', meta(410));
    expect(words(explainSubscriptionError(gone, 'uncancel', 'Acme'))).toMatch(/already ended/);
  });

  it('passes other errors through', () => {
    const error = new ConnectionError();
    expect(explainSubscriptionError(error, 'cancel', 'Acme')).toBe(error);
    expect(explainSubscriptionError(null, 'cancel', 'Acme')).toBeNull();
  });
});
