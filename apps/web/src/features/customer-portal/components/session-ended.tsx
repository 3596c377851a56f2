import type { SessionEnd } from '../session/use-session-token';

const WORDS: Record<SessionEnd, { title: string; description: (seller: string) => string }> = {
  missing: {
    title: 'This link has expired',
    description: (seller) =>
      `The customer portal of ${seller} opens from a personal link, and this one has no valid session in it. Ask ${seller} for a new link, or sign in with your email address below.`,
  },
  expired: {
    title: 'This link has expired',
    description: (seller) =>
      `For your security, a link to the customer portal works for a limited time. Ask ${seller} for a new link, or sign in with your email address below.`,
  },
  'signed-out': {
    title: 'You have signed out',
    description: (seller) =>
      `To open the customer portal of ${seller} again, sign in with your email address below, or use a new link from ${seller}.`,
  },
};

/** No session: the customer learns why and where a new link comes from (the portal has no password). */
export function SessionEnded({ reason, sellerName }: { reason: SessionEnd; sellerName: string }) {
  const words = WORDS[reason];
  return (
    <section
      aria-labelledby="session-ended"
      className="mx-auto max-w-lg rounded-lg border border-slate-200 bg-white px-6 py-10 text-center shadow-sm"
    >
      <h1 id="session-ended" className="text-xl font-semibold text-slate-900">
        {words.title}
      </h1>
      <p className="mt-2 text-sm text-slate-700">{words.description(sellerName)}</p>
    </section>
  );
}
