/**
 * Who reads a label: the seller in the dashboard, or their customer in the portal. The two see the same
 * records; the words differ ("Past due" for the seller is "Payment overdue" for the customer).
 */
export type Audience = 'seller' | 'customer';
