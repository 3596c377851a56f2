import { ApiError } from '../../platform/http/errors.js';

/** The reference's 409 of `POST /v1/disputes/{id}/accept`; the class name is the wire `error`. */
export class DisputeNotOpenError extends ApiError {
  readonly status = 409;
  constructor(disputeId: string) {
    super(`Dispute ${disputeId} is not awaiting a response.`);
  }
}
