import { ApiError } from '../../../platform/http/errors.js';

/** A plan change from the portal while the organization lets only itself change plans. */
export class UpdateSubscriptionNotAllowed extends ApiError {
  readonly status = 403;
  constructor() {
    super('Updating subscription is not allowed.');
  }
}
