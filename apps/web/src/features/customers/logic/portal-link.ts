/** The mailto: address of an email to the customer carrying their portal link. */
export function portalLinkMailto(email: string, sellerName: string, url: string): string {
  const subject = `Your ${sellerName} customer portal`;
  const body = `Hello,\n\nHere is your link to the ${sellerName} customer portal, where you can see your orders, subscriptions and benefits:\n\n${url}\n\nThe link works for an hour; after that, sign in on the portal with a code sent to this email address.`;
  return `mailto:${encodeURIComponent(email)}?subject=${encodeURIComponent(subject)}&body=${encodeURIComponent(body)}`;
}
