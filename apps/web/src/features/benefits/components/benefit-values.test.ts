import type { Benefit } from '@tessera/sdk';
import { describe, expect, it } from 'vitest';
import {
  benefitCreateBody,
  benefitFormValues,
  benefitProperties,
  benefitUpdateBody,
  canSubmit,
  type BenefitFormValues,
} from './benefit-values';

const ORG = '00000000-0000-4000-8000-000000000001';
const FILE_A = '3f2b8c1e-1111-4000-8000-000000000001';
const FILE_B = '3f2b8c1e-2222-4000-8000-000000000002';
const METER = '3f2b8c1e-3333-4000-8000-000000000003';
const blank = benefitFormValues();
const values = (patch: Partial<BenefitFormValues>): BenefitFormValues => ({ ...blank, ...patch });

function benefit(type: Benefit['type'], properties: unknown): Benefit {
  return {
    id: '00000000-0000-4000-8000-0000000000b1',
    created_at: '2026-01-01T00:00:00Z',
    modified_at: null,
    type,
    description: 'Pro license',
    selectable: true,
    deletable: true,
    is_deleted: false,
    organization_id: ORG,
    metadata: {},
    visibility: 'public',
    properties,
    visibility_configurable: false,
  } as Benefit;
}

describe('benefitProperties', () => {
  it('sends an empty note as null', () => {
    expect(benefitProperties(values({ type: 'custom', note: '  ' }))).toEqual({
      properties: { note: null },
      errors: {},
    });
  });

  it('builds license key limits from what is filled, leaving the rest null', () => {
    const filled = values({
      type: 'license_keys',
      prefix: ' ACME ',
      expiresAfter: '2',
      timeframe: 'month',
      activationLimit: '3',
      customerAdmin: true,
      usageLimit: '',
    });
    expect(benefitProperties(filled)).toEqual({
      properties: {
        prefix: 'ACME',
        expires: { ttl: 2, timeframe: 'month' },
        activations: { limit: 3, enable_customer_admin: true },
        limit_usage: null,
      },
      errors: {},
    });
    expect(benefitProperties(values({ type: 'license_keys' })).properties).toEqual({
      prefix: null,
      expires: null,
      activations: null,
      limit_usage: null,
    });
  });

  it.each([
    [{ expiresAfter: '0' }, 'properties.expires.ttl'],
    [{ expiresAfter: '1.5' }, 'properties.expires.ttl'],
    [{ activationLimit: '51' }, 'properties.activations.limit'],
    [{ activationLimit: '0' }, 'properties.activations.limit'],
    [{ usageLimit: '-1' }, 'properties.limit_usage'],
  ])('refuses license key bounds the API refuses: %o', (patch, key) => {
    expect(Object.keys(benefitProperties(values({ type: 'license_keys', ...patch })).errors)).toEqual([key]);
  });

  it('checks GitHub owner and repository names by GitHub rules', () => {
    const good = values({ type: 'github_repository', repositoryOwner: 'acme', repositoryName: 'pro.app_v2' });
    expect(benefitProperties({ ...good, permission: 'push' })).toEqual({
      properties: { repository_owner: 'acme', repository_name: 'pro.app_v2', permission: 'push' },
      errors: {},
    });
    const bad = values({ type: 'github_repository', repositoryOwner: '-acme', repositoryName: 'a b' });
    expect(Object.keys(benefitProperties(bad).errors).sort()).toEqual([
      'properties.repository_name',
      'properties.repository_owner',
    ]);
    expect(Object.keys(benefitProperties(values({ type: 'github_repository' })).errors)).toHaveLength(2);
  });

  it('sends every file row, so an error of the API names the row it is about', () => {
    const files = [
      { key: '0', id: FILE_A, archived: false },
      { key: '1', id: '', archived: false },
      { key: '2', id: FILE_B, archived: true },
      { key: '3', id: FILE_A, archived: false },
      { key: '4', id: 'not-an-id', archived: false },
    ];
    const result = benefitProperties(values({ type: 'downloadables', files }));
    expect(result.properties).toEqual({
      files: [FILE_A, '', FILE_B, FILE_A, 'not-an-id'],
      archived: { [FILE_B]: true },
    });
    expect(Object.keys(result.errors)).toEqual(['properties.files.1', 'properties.files.3', 'properties.files.4']);
  });

  it('requires a meter ID and a positive number of units for meter credits', () => {
    expect(benefitProperties(values({ type: 'meter_credit', meterId: METER, units: '100', rollover: true }))).toEqual({
      properties: { meter_id: METER, units: 100, rollover: true },
      errors: {},
    });
    expect(Object.keys(benefitProperties(values({ type: 'meter_credit', meterId: 'm1', units: '' })).errors)).toEqual([
      'properties.meter_id',
      'properties.units',
    ]);
  });
});

describe('benefitCreateBody / benefitUpdateBody', () => {
  it('creates with the organization, the type and the trimmed description', () => {
    const { body, errors } = benefitCreateBody(values({ description: ' Onboarding call ', note: 'Book it' }), ORG);
    expect(errors).toEqual({});
    expect(body).toEqual({
      type: 'custom',
      organization_id: ORG,
      description: 'Onboarding call',
      properties: { note: 'Book it' },
    });
  });

  it('refuses a description outside 3 to 42 characters', () => {
    expect(benefitCreateBody(values({ description: 'ab' }), ORG).errors).toHaveProperty('description');
    expect(benefitUpdateBody(values({ description: 'x'.repeat(43) })).errors).toHaveProperty('description');
  });

  it('updates with the stored type and the whole properties object', () => {
    const stored = benefit('license_keys', {
      prefix: 'ACME',
      expires: { ttl: 1, timeframe: 'year' },
      activations: null,
      limit_usage: 10,
    });
    const edited = { ...benefitFormValues(stored), usageLimit: '' };
    expect(benefitUpdateBody(edited)).toEqual({
      body: {
        type: 'license_keys',
        description: 'Pro license',
        properties: { prefix: 'ACME', expires: { ttl: 1, timeframe: 'year' }, activations: null, limit_usage: null },
      },
      errors: {},
    });
  });
});

describe('benefitFormValues', () => {
  it('reads every type back into the form', () => {
    expect(benefitFormValues(benefit('custom', { note: 'Hi' }))).toMatchObject({ type: 'custom', note: 'Hi' });
    expect(
      benefitFormValues(
        benefit('license_keys', {
          prefix: null,
          expires: null,
          activations: { limit: 5, enable_customer_admin: true },
          limit_usage: null,
        }),
      ),
    ).toMatchObject({ activationLimit: '5', customerAdmin: true, expiresAfter: '', usageLimit: '' });
    expect(
      benefitFormValues(
        benefit('github_repository', { repository_owner: 'acme', repository_name: 'pro', permission: 'triage' }),
      ),
    ).toMatchObject({ repositoryOwner: 'acme', repositoryName: 'pro', permission: 'triage' });
    expect(
      benefitFormValues(benefit('downloadables', { files: [FILE_A, FILE_B], archived: { [FILE_B]: true } })).files,
    ).toEqual([
      { key: '0', id: FILE_A, archived: false },
      { key: '1', id: FILE_B, archived: true },
    ]);
    expect(benefitFormValues(benefit('meter_credit', { meter_id: METER, units: 5, rollover: true }))).toMatchObject({
      meterId: METER,
      units: '5',
      rollover: true,
    });
  });

  it('keeps the saved Discord token, to send it back unchanged', () => {
    const discord = benefit('discord', { guild_id: '42', role_id: '7', guild_token: 'saved.jwt.token' });
    const form = benefitFormValues(discord);
    expect(form).toMatchObject({ guildId: '42', roleId: '7', guildToken: 'saved.jwt.token' });
    expect(benefitUpdateBody({ ...form, roleId: '8' }).body).toEqual({
      type: 'discord',
      description: 'Pro license',
      properties: { guild_token: 'saved.jwt.token', role_id: '8' },
    });
  });
});

describe('canSubmit', () => {
  it('needs a connected Discord server (a guild token) for a Discord benefit', () => {
    expect(canSubmit(values({ type: 'discord' }), false)).toBe(false);
    expect(canSubmit(values({ type: 'discord', guildToken: 'fresh.jwt.token' }), false)).toBe(true);
    expect(canSubmit(values({ type: 'discord', guildToken: 'saved.jwt.token' }), true)).toBe(true);
    expect(canSubmit(values({ type: 'license_keys' }), false)).toBe(true);
  });
});
