import type { Benefit, BenefitCreate, BenefitType, BenefitUpdate } from '@tessera/sdk';

export type Timeframe = 'day' | 'month' | 'year';
export type GitHubPermission = 'pull' | 'triage' | 'push' | 'maintain' | 'admin';

/** One file of a downloadables benefit: its id, whether it is archived, and what the upload said of it. */
export interface FileDraft {
  key: string;
  id: string;
  archived: boolean;
  name?: string;
  sizeReadable?: string;
}

/** Everything the benefit form edits, as typed; fields of the other types are kept but not sent. */
export interface BenefitFormValues {
  type: BenefitType;
  description: string;
  note: string;
  prefix: string;
  expiresAfter: string;
  timeframe: Timeframe;
  activationLimit: string;
  customerAdmin: boolean;
  usageLimit: string;
  repositoryOwner: string;
  repositoryName: string;
  permission: GitHubPermission;
  /** Discord: the connected server and the token it was saved with (sent back unchanged). */
  guildId: string;
  guildToken: string;
  roleId: string;
  files: FileDraft[];
  meterId: string;
  units: string;
  rollover: boolean;
}

/** Bounds the API enforces (benefits.properties.ts); checked here so the form says so before sending. */
export const DESCRIPTION_MIN = 3;
export const DESCRIPTION_MAX = 42;
export const MAX_ACTIVATIONS = 50;
const GITHUB_OWNER = /^[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?$/;
const GITHUB_REPOSITORY = /^[A-Za-z0-9._-]+$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const TIMEFRAME_OPTIONS: { value: Timeframe; label: string }[] = [
  { value: 'day', label: 'Days' },
  { value: 'month', label: 'Months' },
  { value: 'year', label: 'Years' },
];

export const PERMISSION_OPTIONS: { value: GitHubPermission; label: string }[] = [
  { value: 'pull', label: 'Read (pull)' },
  { value: 'triage', label: 'Triage' },
  { value: 'push', label: 'Write (push)' },
  { value: 'maintain', label: 'Maintain' },
  { value: 'admin', label: 'Admin' },
];

export function emptyFile(key: string): FileDraft {
  return { key, id: '', archived: false };
}

const text = (value: number | null | undefined) => (value == null ? '' : String(value));

export function benefitFormValues(benefit?: Benefit): BenefitFormValues {
  const values: BenefitFormValues = {
    type: benefit?.type ?? 'custom',
    description: benefit?.description ?? '',
    note: '',
    prefix: '',
    expiresAfter: '',
    timeframe: 'year',
    activationLimit: '',
    customerAdmin: false,
    usageLimit: '',
    repositoryOwner: '',
    repositoryName: '',
    permission: 'pull',
    guildId: '',
    guildToken: '',
    roleId: '',
    files: [],
    meterId: '',
    units: '',
    rollover: false,
  };
  switch (benefit?.type) {
    case 'custom':
      values.note = benefit.properties.note ?? '';
      break;
    case 'license_keys': {
      const { prefix, expires, activations, limit_usage } = benefit.properties;
      values.prefix = prefix ?? '';
      values.expiresAfter = text(expires?.ttl);
      values.timeframe = expires?.timeframe ?? 'year';
      values.activationLimit = text(activations?.limit);
      values.customerAdmin = activations?.enable_customer_admin ?? false;
      values.usageLimit = text(limit_usage);
      break;
    }
    case 'github_repository':
      values.repositoryOwner = benefit.properties.repository_owner;
      values.repositoryName = benefit.properties.repository_name;
      values.permission = benefit.properties.permission;
      break;
    case 'discord':
      values.guildId = benefit.properties.guild_id;
      values.guildToken = benefit.properties.guild_token;
      values.roleId = benefit.properties.role_id;
      break;
    case 'downloadables': {
      const { files, archived } = benefit.properties;
      if (files.length > 0)
        values.files = files.map((id, index) => ({ key: String(index), id, archived: archived[id] ?? false }));
      break;
    }
    case 'meter_credit':
      values.meterId = benefit.properties.meter_id;
      values.units = String(benefit.properties.units);
      values.rollover = benefit.properties.rollover;
      break;
  }
  return values;
}

/** A Discord benefit needs a guild token: the server connected through Discord (or the saved one, when editing). */
export function canSubmit(values: BenefitFormValues, _isEditing: boolean): boolean {
  return values.type !== 'discord' || values.guildToken !== '';
}

type Errors = Record<string, string>;

/** `''` → null; otherwise a whole number within bounds, or an error under `key`. */
function wholeNumber(input: string, key: string, errors: Errors, min: number, max?: number): number | null {
  const trimmed = input.trim();
  if (trimmed === '') return null;
  const value = /^\d+$/.test(trimmed) ? Number(trimmed) : NaN;
  if (Number.isNaN(value) || value < min || (max !== undefined && value > max))
    errors[key] =
      max !== undefined ? `Enter a whole number from ${min} to ${max}.` : `Enter a whole number, ${min} or more.`;
  return Number.isNaN(value) ? null : value;
}

function required(input: string, key: string, errors: Errors, message: string): string {
  const trimmed = input.trim();
  if (trimmed === '') errors[key] = message;
  return trimmed;
}

type CreateProperties = BenefitCreate['properties'];

/** The properties of the chosen type, with the problems found before sending (keyed like the API's 422). */
export function benefitProperties(values: BenefitFormValues): { properties: CreateProperties; errors: Errors } {
  const errors: Errors = {};
  switch (values.type) {
    case 'custom':
      return { properties: { note: values.note.trim() || null }, errors };
    case 'license_keys': {
      const ttl = wholeNumber(values.expiresAfter, 'properties.expires.ttl', errors, 1);
      const limit = wholeNumber(values.activationLimit, 'properties.activations.limit', errors, 1, MAX_ACTIVATIONS);
      const usage = wholeNumber(values.usageLimit, 'properties.limit_usage', errors, 1);
      return {
        properties: {
          prefix: values.prefix.trim() || null,
          expires: ttl ? { ttl, timeframe: values.timeframe } : null,
          activations: limit ? { limit, enable_customer_admin: values.customerAdmin } : null,
          limit_usage: usage,
        },
        errors,
      };
    }
    case 'github_repository': {
      const owner = required(values.repositoryOwner, 'properties.repository_owner', errors, 'Enter the owner.');
      const name = required(values.repositoryName, 'properties.repository_name', errors, 'Enter the repository.');
      if (owner && (owner.length > 39 || !GITHUB_OWNER.test(owner)))
        errors['properties.repository_owner'] =
          'A GitHub owner is up to 39 letters, digits or hyphens, not starting or ending with a hyphen.';
      if (name && (name.length > 100 || !GITHUB_REPOSITORY.test(name)))
        errors['properties.repository_name'] =
          'A repository name is up to 100 letters, digits, dots, hyphens or underscores.';
      return {
        properties: { repository_owner: owner, repository_name: name, permission: values.permission },
        errors,
      };
    }
    case 'discord': {
      const roleId = required(values.roleId, 'properties.role_id', errors, 'Choose the role.');
      if (roleId.length > 64) errors['properties.role_id'] = 'A role ID is at most 64 characters.';
      return { properties: { guild_token: values.guildToken, role_id: roleId }, errors };
    }
    case 'downloadables': {
      const files: string[] = [];
      const archived: Record<string, boolean> = {};
      // Every row is sent, blank or not, so the API's `properties.files.<n>` names the row it is about.
      values.files.forEach((file, index) => {
        const id = file.id.trim();
        if (id === '') errors[`properties.files.${index}`] = 'Enter the file ID, or remove this file.';
        else if (!UUID.test(id)) errors[`properties.files.${index}`] = 'A file ID looks like 3f2b8c1e-….';
        else if (files.includes(id)) errors[`properties.files.${index}`] = 'This file is listed twice.';
        files.push(id);
        if (file.archived) archived[id] = true;
      });
      if (files.length === 0) errors['properties.files'] = 'Add at least one file.';
      return { properties: { files, archived }, errors };
    }
    case 'meter_credit': {
      const meterId = required(values.meterId, 'properties.meter_id', errors, 'Enter the meter ID.');
      if (meterId && !UUID.test(meterId)) errors['properties.meter_id'] = 'A meter ID looks like 3f2b8c1e-….';
      const units = wholeNumber(values.units, 'properties.units', errors, 1);
      if (units === null && !errors['properties.units']) errors['properties.units'] = 'Enter the units credited.';
      return { properties: { meter_id: meterId, units: units ?? 0, rollover: values.rollover }, errors };
    }
  }
}

function checkedDescription(values: BenefitFormValues, errors: Errors): string {
  const description = values.description.trim();
  if (description.length < DESCRIPTION_MIN || description.length > DESCRIPTION_MAX)
    errors.description = `Enter ${DESCRIPTION_MIN} to ${DESCRIPTION_MAX} characters.`;
  return description;
}

/** The create body (type, description, properties), or the problems to show next to the fields. */
export function benefitCreateBody(
  values: BenefitFormValues,
  organizationId: string,
): { body: BenefitCreate; errors: Errors } {
  const { properties, errors } = benefitProperties(values);
  const description = checkedDescription(values, errors);
  // The type and its properties go together: the union member is chosen by `type`.
  const body = { type: values.type, organization_id: organizationId, description, properties } as BenefitCreate;
  return { body, errors };
}

/** The update body: the type must be the stored one; properties are replaced whole. */
export function benefitUpdateBody(values: BenefitFormValues): { body: BenefitUpdate; errors: Errors } {
  const { properties, errors } = benefitProperties(values);
  const description = checkedDescription(values, errors);
  const body = { type: values.type, description, properties } as BenefitUpdate;
  return { body, errors };
}

/** Every property field the form shows next to its control (others are listed in the alert). */
export function shownBenefitFields(values: BenefitFormValues): string[] {
  return [
    'type',
    'description',
    'properties.note',
    'properties.prefix',
    'properties.expires.ttl',
    'properties.expires.timeframe',
    'properties.activations.limit',
    'properties.limit_usage',
    'properties.repository_owner',
    'properties.repository_name',
    'properties.permission',
    'properties.role_id',
    'properties.files',
    ...values.files.map((_, index) => `properties.files.${index}`),
    'properties.meter_id',
    'properties.units',
  ];
}
