import type { Organization, OrganizationSocialLinkInput } from '@tessera/sdk';
import { useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { FileUploader, IMAGE_TYPES } from '../../../components/files/file-uploader';
import { ApiErrorAlert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card, CardTitle } from '../../../components/ui/card';
import { Field } from '../../../components/ui/field';
import { Checkbox, Input } from '../../../components/ui/input';
import { Select } from '../../../components/ui/select';
import { useToast } from '../../../components/ui/toast';
import { fieldError } from '../../../lib/api-error';
import { ORGANIZATIONS_QUERY_KEY } from '../api/get-organizations';
import { useUpdateOrganization } from '../api/update-organization';

const PLATFORMS: { value: OrganizationSocialLinkInput['platform']; label: string }[] = [
  { value: 'x', label: 'X' },
  { value: 'github', label: 'GitHub' },
  { value: 'linkedin', label: 'LinkedIn' },
  { value: 'youtube', label: 'YouTube' },
  { value: 'instagram', label: 'Instagram' },
  { value: 'facebook', label: 'Facebook' },
  { value: 'tiktok', label: 'TikTok' },
  { value: 'other', label: 'Other' },
];

/** The customer emails a seller can turn off (`customer_email_settings`), as the seller knows them. */
const CUSTOMER_EMAILS: { key: keyof Organization['customer_email_settings']; label: string }[] = [
  { key: 'order_confirmation', label: 'Receipt of a purchase, with the link to its invoice' },
  { key: 'subscription_cycled', label: 'Receipt of each subscription renewal' },
  {
    key: 'subscription_past_due',
    label: 'A renewal payment failed (with a link to update the card), and when it is paid',
  },
  { key: 'subscription_cancellation', label: 'A subscription was canceled' },
  { key: 'subscription_revoked', label: 'A subscription has ended' },
  { key: 'order_refunded', label: 'A refund was issued' },
];

/** The API's limit on an organization's logo (files.schemas.ts). */
const ORGANIZATION_AVATAR_MAX_BYTES = 1024 * 1024;

const PRORATION = [
  { value: 'prorate', label: 'Prorate: charge the difference on the next invoice' },
  { value: 'invoice', label: 'Invoice: charge the difference immediately' },
];

export function OrganizationSettingsForm({ organization }: { organization: Organization }) {
  const [name, setName] = useState(organization.name);
  const [email, setEmail] = useState(organization.email ?? '');
  const [website, setWebsite] = useState(organization.website ?? '');
  const [avatarUrl, setAvatarUrl] = useState(organization.avatar_url ?? '');
  const [socials, setSocials] = useState<OrganizationSocialLinkInput[]>(organization.socials);
  const [settings, setSettings] = useState(organization.subscription_settings);
  const [customerEmails, setCustomerEmails] = useState(organization.customer_email_settings);
  const logoId = useId();
  const queryClient = useQueryClient();
  const mutation = useUpdateOrganization();
  const toast = useToast();
  const error = mutation.error;

  function submit(event: FormEvent) {
    event.preventDefault();
    mutation.mutate(
      {
        id: organization.id,
        body: {
          name,
          email: email.trim() || null,
          website: website.trim() || null,
          avatar_url: avatarUrl.trim() || null,
          socials: socials.filter((social) => social.url.trim() !== ''),
          // The three settings the seller chooses; the reference's fixed ones keep their one value.
          subscription_settings: {
            allow_multiple_subscriptions: settings.allow_multiple_subscriptions,
            allow_customer_updates: settings.allow_customer_updates,
            proration_behavior: settings.proration_behavior,
          },
          customer_email_settings: customerEmails,
        },
      },
      { onSuccess: () => toast('Organization settings saved') },
    );
  }

  const shown = ['name', 'email', 'website', 'avatar_url', ...socials.map((_, index) => `socials.${index}.url`)];
  return (
    <form onSubmit={submit} className="space-y-6" noValidate>
      <ApiErrorAlert error={error} shownFields={shown} />
      <Card>
        <CardTitle>Profile</CardTitle>
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label="Name" error={fieldError(error, 'name')}>
            <Input value={name} onChange={(event) => setName(event.target.value)} />
          </Field>
          <Field label="Support email" error={fieldError(error, 'email')}>
            <Input type="email" value={email} onChange={(event) => setEmail(event.target.value)} />
          </Field>
          <Field label="Website" hint="https://…" error={fieldError(error, 'website')}>
            <Input type="url" value={website} onChange={(event) => setWebsite(event.target.value)} />
          </Field>
        </div>
        <div className="mt-4 space-y-2">
          <p id={logoId} className="text-sm font-medium text-slate-800">
            Logo
          </p>
          <div className="flex flex-col gap-4 sm:flex-row sm:items-start">
            <div className="flex shrink-0 flex-col items-center gap-2">
              {avatarUrl ? (
                <img
                  src={avatarUrl}
                  alt={`Logo of ${name || organization.name}`}
                  className="h-20 w-20 rounded-md border border-slate-200 object-cover"
                />
              ) : (
                <div className="flex h-20 w-20 items-center justify-center rounded-md border border-dashed border-slate-300 text-xs text-slate-500">
                  No logo
                </div>
              )}
              {avatarUrl && (
                <Button variant="ghost" size="sm" onClick={() => setAvatarUrl('')}>
                  Remove logo
                </Button>
              )}
            </div>
            <div className="min-w-0 flex-1">
              <FileUploader
                service="organization_avatar"
                organizationId={organization.id}
                label="Upload a logo"
                hint="A square JPEG, PNG, GIF, WebP or SVG image, up to 1 MB. It becomes the logo once uploaded."
                accept={IMAGE_TYPES}
                maxBytes={ORGANIZATION_AVATAR_MAX_BYTES}
                onUploaded={(file) => {
                  // The API makes an uploaded avatar the organization's logo at once.
                  if (file.service === 'organization_avatar') setAvatarUrl(file.public_url);
                  void queryClient.invalidateQueries({ queryKey: ORGANIZATIONS_QUERY_KEY });
                }}
              />
            </div>
          </div>
          {fieldError(error, 'avatar_url') && <p className="text-sm text-red-700">{fieldError(error, 'avatar_url')}</p>}
        </div>
      </Card>
      <Card>
        <CardTitle>Social links</CardTitle>
        <div className="space-y-3">
          {socials.length === 0 && <p className="text-sm text-slate-600">No social links yet.</p>}
          {socials.map((social, index) => (
            <div key={index} className="grid items-end gap-3 sm:grid-cols-[12rem_1fr_auto]">
              <Field label={`Platform ${index + 1}`}>
                <Select
                  value={social.platform}
                  options={PLATFORMS}
                  onValueChange={(platform) =>
                    setSocials(
                      socials.map((item, at) =>
                        at === index ? { ...item, platform: platform as typeof item.platform } : item,
                      ),
                    )
                  }
                />
              </Field>
              <Field label={`Link ${index + 1}`} error={fieldError(error, `socials.${index}.url`)}>
                <Input
                  type="url"
                  value={social.url}
                  onChange={(event) =>
                    setSocials(socials.map((item, at) => (at === index ? { ...item, url: event.target.value } : item)))
                  }
                />
              </Field>
              <Button variant="ghost" onClick={() => setSocials(socials.filter((_, at) => at !== index))}>
                Remove link {index + 1}
              </Button>
            </div>
          ))}
          <Button variant="secondary" size="sm" onClick={() => setSocials([...socials, { platform: 'x', url: '' }])}>
            Add social link
          </Button>
        </div>
      </Card>
      <Card>
        <CardTitle>Subscriptions</CardTitle>
        <div className="flex flex-col items-start gap-3">
          <Checkbox
            label="Allow a customer to hold several subscriptions"
            checked={settings.allow_multiple_subscriptions}
            onChange={(event) => setSettings({ ...settings, allow_multiple_subscriptions: event.target.checked })}
          />
          <Checkbox
            label="Allow customers to change their plan"
            checked={settings.allow_customer_updates}
            onChange={(event) => setSettings({ ...settings, allow_customer_updates: event.target.checked })}
          />
          <Field label="When a plan changes mid-period" className="w-full max-w-lg">
            <Select
              value={settings.proration_behavior}
              options={PRORATION}
              onValueChange={(value) =>
                setSettings({ ...settings, proration_behavior: value as typeof settings.proration_behavior })
              }
            />
          </Field>
        </div>
      </Card>
      <Card>
        <CardTitle>Customer emails</CardTitle>
        <p className="mb-3 text-sm text-slate-600">
          Emails your customers receive from {organization.name}. The sign-in code of the customer portal is always
          sent.
        </p>
        <div className="flex flex-col items-start gap-3">
          {CUSTOMER_EMAILS.map(({ key, label }) => (
            <Checkbox
              key={key}
              label={label}
              checked={customerEmails[key]}
              onChange={(event) => setCustomerEmails({ ...customerEmails, [key]: event.target.checked })}
            />
          ))}
        </div>
      </Card>
      <Button type="submit" isPending={mutation.isPending}>
        Save settings
      </Button>
    </form>
  );
}
