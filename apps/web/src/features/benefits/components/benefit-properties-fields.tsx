import type { FileRead } from '@tessera/sdk';
import { useRef } from 'react';
import { FileUploader } from '../../../components/files/file-uploader';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Field } from '../../../components/ui/field';
import { Checkbox, Input, Textarea } from '../../../components/ui/input';
import { Select, type SelectOption } from '../../../components/ui/select';
import { cn } from '../../../lib/cn';
import { useFiles } from '../api/get-files';
import { useDiscordGuild, useGitHubRepositories, useStartDiscordBot } from '../api/integrations';
import {
  MAX_ACTIVATIONS,
  PERMISSION_OPTIONS,
  TIMEFRAME_OPTIONS,
  type BenefitFormValues,
  type FileDraft,
  type GitHubPermission,
  type Timeframe,
} from './benefit-values';

type Values = BenefitFormValues;
type Patch = (patch: Partial<Values>) => void;
type ErrorFor = (field: string) => string | undefined;

export interface BenefitPropertiesFieldsProps {
  values: Values;
  set: Patch;
  errorFor: ErrorFor;
  isEditing: boolean;
  /** Where uploaded files go (downloadables). */
  organizationId?: string;
  /** The organization's meters, for a meter credit (an ID is typed when there are none to pick). */
  meterOptions?: readonly SelectOption[];
}

/** The settings of the chosen benefit type. */
export function BenefitPropertiesFields(props: BenefitPropertiesFieldsProps) {
  switch (props.values.type) {
    case 'custom':
      return (
        <Field
          label="Note"
          hint="Private instructions shown to customers after purchase, e.g. how to book their onboarding call. Optional."
          error={props.errorFor('properties.note')}
        >
          <Textarea value={props.values.note} onChange={(event) => props.set({ note: event.target.value })} />
        </Field>
      );
    case 'license_keys':
      return <LicenseKeysFields {...props} />;
    case 'github_repository':
      return <GitHubRepositoryFields {...props} />;
    case 'discord':
      return <DiscordFields {...props} />;
    case 'downloadables':
      return <DownloadablesFields {...props} />;
    case 'meter_credit':
      return <MeterCreditFields {...props} />;
  }
}

function LicenseKeysFields({ values, set, errorFor }: BenefitPropertiesFieldsProps) {
  const hasActivationLimit = values.activationLimit.trim() !== '';
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <Field label="Key prefix" hint="Optional, e.g. ACME gives ACME-8F1B…." error={errorFor('properties.prefix')}>
        <Input value={values.prefix} onChange={(event) => set({ prefix: event.target.value })} />
      </Field>
      <Field
        label="Usage limit per key"
        hint="How many uses a key allows in total. Optional."
        error={errorFor('properties.limit_usage')}
      >
        <Input
          inputMode="numeric"
          value={values.usageLimit}
          onChange={(event) => set({ usageLimit: event.target.value })}
        />
      </Field>
      <Field
        label="Keys expire after"
        hint="Counted from the grant. Leave empty for keys that never expire."
        error={errorFor('properties.expires.ttl')}
      >
        <Input
          inputMode="numeric"
          value={values.expiresAfter}
          onChange={(event) => set({ expiresAfter: event.target.value })}
        />
      </Field>
      <Field label="Expiry unit" error={errorFor('properties.expires.timeframe')}>
        <Select
          value={values.timeframe}
          options={TIMEFRAME_OPTIONS}
          onValueChange={(value) => set({ timeframe: value as Timeframe })}
        />
      </Field>
      <Field
        label="Activation limit"
        hint={`Devices or installs per key, 1 to ${MAX_ACTIVATIONS}. Leave empty when keys need no activation.`}
        error={errorFor('properties.activations.limit')}
      >
        <Input
          inputMode="numeric"
          value={values.activationLimit}
          onChange={(event) => set({ activationLimit: event.target.value })}
        />
      </Field>
      <Checkbox
        className="self-center"
        label="Customers may manage their activations"
        disabled={!hasActivationLimit}
        checked={hasActivationLimit && values.customerAdmin}
        onChange={(event) => set({ customerAdmin: event.target.checked })}
      />
    </div>
  );
}

function GitHubRepositoryFields({ values, set, errorFor }: BenefitPropertiesFieldsProps) {
  // The repositories the server's GitHub token reaches, when it is configured: picked instead of typed.
  const repositories = useGitHubRepositories();
  const options = (repositories.data?.items ?? []).map((repository) => ({
    value: `${repository.repository_owner}/${repository.repository_name}`,
    label: `${repository.repository_owner}/${repository.repository_name}${repository.private ? ' (private)' : ''}`,
  }));
  return (
    <div className="space-y-4">
      {options.length > 0 && (
        <Field label="Repository" hint="The repositories Tessera's GitHub token can invite collaborators to.">
          <Select
            value={
              values.repositoryOwner && values.repositoryName
                ? `${values.repositoryOwner}/${values.repositoryName}`
                : ''
            }
            placeholder="Choose a repository"
            options={options}
            onValueChange={(value) => {
              const [repositoryOwner = '', repositoryName = ''] = value.split('/');
              set({ repositoryOwner, repositoryName });
            }}
          />
        </Field>
      )}
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          label="Repository owner"
          hint="The GitHub organization or user, e.g. acme."
          error={errorFor('properties.repository_owner')}
        >
          <Input
            autoComplete="off"
            value={values.repositoryOwner}
            onChange={(event) => set({ repositoryOwner: event.target.value })}
          />
        </Field>
        <Field label="Repository name" hint="e.g. acme-pro." error={errorFor('properties.repository_name')}>
          <Input
            autoComplete="off"
            value={values.repositoryName}
            onChange={(event) => set({ repositoryName: event.target.value })}
          />
        </Field>
        <Field
          label="Permission"
          hint="What customers may do in the repository."
          error={errorFor('properties.permission')}
        >
          <Select
            value={values.permission}
            options={PERMISSION_OPTIONS}
            onValueChange={(value) => set({ permission: value as GitHubPermission })}
          />
        </Field>
      </div>
      <p className="text-sm text-slate-600">
        Customers are invited to the repository when their purchase grants the benefit, and removed when it is revoked.
      </p>
    </div>
  );
}

/**
 * A Discord benefit's server is connected by adding the server's bot to it (through Discord); its roles
 * then come from Discord. A role ID can still be typed when the roles cannot be read.
 */
function DiscordFields({ values, set, errorFor, organizationId }: BenefitPropertiesFieldsProps) {
  const connect = useStartDiscordBot();
  const guild = useDiscordGuild(values.guildToken);
  if (values.guildToken === '')
    return (
      <div className="space-y-3">
        <p className="text-sm text-slate-700">
          Customers receive a role on your Discord server. Add the bot to the server first; you come back here.
        </p>
        <Button
          variant="secondary"
          isPending={connect.isPending}
          disabled={!organizationId}
          onClick={() => organizationId && connect.mutate(organizationId)}
        >
          Connect a Discord server
        </Button>
        {connect.error && (
          <Alert tone="error" title="Discord could not be connected">
            {connect.error.message}
          </Alert>
        )}
      </div>
    );
  const roles = (guild.data?.roles ?? []).filter((role) => !role.is_bot);
  // Discord lets the bot give only roles below its own highest role: the others are shown, not choosable.
  const botRole = guild.data?.roles.find((role) => role.is_bot);
  const blocked = roles.filter((role) => !role.manageable);
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <Field label="Discord server" hint="The server the bot was added to.">
        <Input value={guild.data?.name ?? values.guildId} readOnly />
      </Field>
      {roles.length > 0 ? (
        <Field
          label="Role"
          hint={
            blocked.length > 0
              ? `The role customers receive on the server. The bot can give only roles below its own role${
                  botRole ? ` (${botRole.name})` : ''
                }: to offer ${blocked.map((role) => role.name).join(', ')}, move the bot's role above it in the server's settings (Roles).`
              : 'The role customers receive on the server.'
          }
          error={errorFor('properties.role_id')}
        >
          <Select
            value={values.roleId}
            placeholder="Choose a role"
            options={roles.map((role) => ({
              value: role.id,
              label: role.manageable ? role.name : `${role.name} (above the bot's role)`,
              disabled: !role.manageable,
            }))}
            onValueChange={(roleId) => set({ roleId })}
          />
        </Field>
      ) : (
        <Field
          label="Role ID"
          hint={guild.isPending ? 'Loading the roles…' : 'The role customers receive on the server.'}
          error={errorFor('properties.role_id')}
        >
          <Input autoComplete="off" value={values.roleId} onChange={(event) => set({ roleId: event.target.value })} />
        </Field>
      )}
    </div>
  );
}

function DownloadablesFields({ values, set, errorFor, organizationId }: BenefitPropertiesFieldsProps) {
  const nextKey = useRef(values.files.length);
  // Names and sizes of the files the benefit already had (those uploaded here carry their own).
  const unnamed = values.files.filter((file) => file.name === undefined).map((file) => file.id);
  const known = useFiles({ organization_id: organizationId, ids: unnamed, limit: 100 }, unnamed.length > 0);
  const describe = (file: FileDraft) => {
    const found = known.data?.items.find((item) => item.id === file.id);
    return {
      name: file.name ?? found?.name ?? (known.isPending ? 'Loading…' : file.id),
      size: file.sizeReadable ?? found?.size_readable,
    };
  };
  const update = (key: string, patch: Partial<FileDraft>) =>
    set({ files: values.files.map((file) => (file.key === key ? { ...file, ...patch } : file)) });
  const added = (file: FileRead) => {
    if (values.files.some((draft) => draft.id === file.id)) return;
    const draft = { key: String(nextKey.current++), id: file.id, archived: false };
    set({ files: [...values.files, { ...draft, name: file.name, sizeReadable: file.size_readable }] });
  };
  return (
    <fieldset className="space-y-3">
      <legend className="text-sm font-medium text-slate-800">Files</legend>
      {values.files.length > 0 && (
        <ul className="space-y-2" aria-label="Files of this benefit">
          {values.files.map((file, index) => {
            const { name, size } = describe(file);
            const error = errorFor(`properties.files.${index}`);
            return (
              <li key={file.key} className="rounded-md border border-slate-200 px-3 py-2 text-sm">
                <div className="flex flex-wrap items-center gap-3">
                  <span className={cn('min-w-0 flex-1 truncate', file.archived && 'text-slate-500 line-through')}>
                    {name}
                    {size && <span className="ml-2 text-xs text-slate-600">{size}</span>}
                  </span>
                  <Checkbox
                    label={`Archive ${name}`}
                    checked={file.archived}
                    onChange={(event) => update(file.key, { archived: event.target.checked })}
                  />
                  <Button
                    variant="ghost"
                    size="sm"
                    onClick={() => set({ files: values.files.filter((item) => item.key !== file.key) })}
                  >
                    Remove {name}
                  </Button>
                </div>
                {error && <p className="mt-1 text-sm text-red-700">{error}</p>}
              </li>
            );
          })}
        </ul>
      )}
      <p className="text-xs text-slate-600">
        An archived file stays with customers who already have it and is not offered to new ones.
      </p>
      {errorFor('properties.files') && <p className="text-sm text-red-700">{errorFor('properties.files')}</p>}
      {organizationId && (
        <FileUploader
          service="downloadable"
          organizationId={organizationId}
          label="Files to download"
          hint="Any type and size. Large files are sent in parts; a part that fails can be retried."
          multiple
          onUploaded={added}
        />
      )}
    </fieldset>
  );
}

function MeterCreditFields({ values, set, errorFor, meterOptions = [] }: BenefitPropertiesFieldsProps) {
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      {meterOptions.length > 0 ? (
        <Field
          label="Meter"
          hint="Meter credits also need usage-based billing switched on for the organization."
          error={errorFor('properties.meter_id')}
        >
          <Select
            value={values.meterId}
            options={meterOptions}
            placeholder="Choose a meter"
            onValueChange={(meterId) => set({ meterId })}
          />
        </Field>
      ) : (
        <Field
          label="Meter ID"
          hint="The ID of one of this organization's meters: copy it from the meter's page (Meters). Meter credits also need usage-based billing switched on for the organization."
          error={errorFor('properties.meter_id')}
        >
          <Input autoComplete="off" value={values.meterId} onChange={(event) => set({ meterId: event.target.value })} />
        </Field>
      )}
      <Field
        label="Units credited"
        hint="Credited to the customer every billing period."
        error={errorFor('properties.units')}
      >
        <Input inputMode="numeric" value={values.units} onChange={(event) => set({ units: event.target.value })} />
      </Field>
      <Checkbox
        className="sm:col-span-2"
        label="Unused units roll over to the next period"
        checked={values.rollover}
        onChange={(event) => set({ rollover: event.target.checked })}
      />
    </div>
  );
}
