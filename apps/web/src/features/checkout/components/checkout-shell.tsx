import type { Organization } from '@tessera/sdk';
import type { ReactNode } from 'react';
import { useDocumentBranding } from '../../../components/branding/use-document-branding';
import { Button } from '../../../components/ui/button';
import { cn } from '../../../lib/cn';

export interface CheckoutShellProps {
  organization?: Pick<Organization, 'name' | 'avatar_url'> & Partial<Pick<Organization, 'branding_settings'>>;
  /** Inside a seller's page: no header, a close button instead. */
  embedded: boolean;
  onClose(): void;
  children: ReactNode;
}

/** The frame of the hosted checkout: the seller's name on top, or minimal chrome when embedded. */
export function CheckoutShell({ organization, embedded, onClose, children }: CheckoutShellProps) {
  useDocumentBranding(organization?.branding_settings);
  const showLogo = organization?.branding_settings?.show_logo ?? true;
  return (
    <div className={cn('min-h-screen', embedded ? 'bg-white' : 'bg-slate-50')}>
      {organization && <title>{`Checkout · ${organization.name}`}</title>}
      {embedded ? (
        <div className="flex justify-end px-2 pt-2">
          <Button variant="ghost" size="sm" onClick={onClose} aria-label="Close checkout">
            <span aria-hidden>✕</span> Close
          </Button>
        </div>
      ) : (
        organization && (
          <header className="border-b border-slate-200 bg-white">
            <div className="mx-auto flex max-w-5xl items-center gap-3 px-4 py-4 sm:px-6">
              {showLogo && organization.avatar_url && (
                <img src={organization.avatar_url} alt="" className="size-8 rounded-full object-cover" />
              )}
              <span className="text-base font-semibold text-slate-900">{organization.name}</span>
            </div>
          </header>
        )
      )}
      <main className={cn('mx-auto max-w-5xl px-4 sm:px-6', embedded ? 'py-4' : 'py-8')}>{children}</main>
    </div>
  );
}
