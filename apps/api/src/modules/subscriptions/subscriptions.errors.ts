import { ApiError } from '../../platform/http/errors.js';

/** The reference's subscription errors; each class name is the wire `error`. */
export class AlreadyCanceledSubscription extends ApiError {
  readonly status = 403;
  constructor() {
    super('This subscription is already canceled or will be at the end of the period.');
  }
}

export { ResourceUnavailable } from '../../platform/http/errors.js';
