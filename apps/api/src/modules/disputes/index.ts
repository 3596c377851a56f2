/** The disputes module's surface: its routes, and the recording of a processor's dispute report. */
export { disputeRoutes } from './disputes.routes.js';
export { recordProcessorDispute, type ProcessorDisputeReport } from './disputes.service.js';
export { fromStripeStatus } from './disputes.rules.js';
