import type { LicenseKeyRead, LicenseKeyStatus, LicenseKeyUpdate } from '@tessera/sdk';

/** The editable parts of a license key as the form holds them (text, '' meaning "no limit"/"never"). */
export interface LicenseKeyFormValues {
  status: LicenseKeyStatus;
  usage: string;
  limitUsage: string;
  limitActivations: string;
  /** `YYYY-MM-DD`, or '' for a key that never expires. */
  expiresOn: string;
}

export function licenseKeyFormValues(key: LicenseKeyRead): LicenseKeyFormValues {
  return {
    status: key.status,
    usage: String(key.usage),
    limitUsage: key.limit_usage === null ? '' : String(key.limit_usage),
    limitActivations: key.limit_activations === null ? '' : String(key.limit_activations),
    expiresOn: key.expires_at ? key.expires_at.slice(0, 10) : '',
  };
}

function wholeNumber(text: string): number | undefined {
  return /^\s*\d+\s*$/.test(text) ? Number(text) : undefined;
}

/** An expiry date means the end of that day (UTC), so a key is usable for the whole day shown. */
function endOfDay(date: string): string {
  return new Date(`${date}T23:59:59.000Z`).toISOString();
}

/**
 * Only what the person changed since the form was filled is sent: usage in particular moves while the
 * page is open (each validation can increment it), and sending the number the form started from
 * would undo those increments.
 */
export function licenseKeyChanges(
  initial: LicenseKeyFormValues,
  values: LicenseKeyFormValues,
): { body: LicenseKeyUpdate; errors: Record<string, string> } {
  const body: LicenseKeyUpdate = {};
  const errors: Record<string, string> = {};
  if (values.status !== initial.status) body.status = values.status;

  if (values.usage.trim() !== initial.usage) {
    const usage = wholeNumber(values.usage);
    if (usage === undefined) errors.usage = 'Enter a whole number, 0 or more.';
    else body.usage = usage;
  }
  if (values.limitUsage.trim() !== initial.limitUsage) {
    const limit = values.limitUsage.trim() === '' ? null : wholeNumber(values.limitUsage);
    if (limit === undefined) errors.limit_usage = 'Enter a whole number, or leave empty for no limit.';
    else body.limit_usage = limit;
  }
  if (values.limitActivations.trim() !== initial.limitActivations) {
    const limit = values.limitActivations.trim() === '' ? null : wholeNumber(values.limitActivations);
    if (limit === undefined) errors.limit_activations = 'Enter a whole number, or leave empty for no limit.';
    else body.limit_activations = limit;
  }
  if (values.expiresOn !== initial.expiresOn) body.expires_at = values.expiresOn ? endOfDay(values.expiresOn) : null;
  return { body, errors };
}
