import type { CustomField } from '@tessera/sdk';
import { describe, expect, it } from 'vitest';
import {
  customFieldCreateBody,
  customFieldFormValues,
  customFieldProperties,
  customFieldUpdateBody,
  fieldSlug,
} from './custom-field-values';

const ORG = '00000000-0000-4000-8000-000000000001';
const blank = customFieldFormValues();

describe('fieldSlug', () => {
  it('keeps lower-case letters and digits, joined by underscores', () => {
    expect(fieldSlug('  Company size (people) ')).toBe('company_size_people');
    expect(fieldSlug('Émile 2')).toBe('emile_2');
  });
});

describe('customFieldProperties', () => {
  it('leaves empty optional properties out (the API refuses empty strings)', () => {
    const values = { ...blank, type: 'text' as const, label: 'Company', placeholder: '  ', maxLength: '80' };
    expect(customFieldProperties(values)).toEqual({
      properties: { form_label: 'Company', max_length: 80 },
      errors: {},
    });
  });

  it('turns number bounds into ge/le, negatives allowed, and refuses a minimum above the maximum', () => {
    expect(customFieldProperties({ ...blank, type: 'number', minimum: '-5', maximum: '10' }).properties).toEqual({
      ge: -5,
      le: 10,
    });
    expect(customFieldProperties({ ...blank, type: 'number', minimum: '3', maximum: '1' }).errors).toEqual({
      'properties.le': 'Must be at least the minimum.',
    });
    expect(customFieldProperties({ ...blank, type: 'number', minimum: '1.5' }).errors).toHaveProperty('properties.ge');
  });

  it('sends date bounds as Unix seconds at midnight UTC, and reads them back as the same dates', () => {
    const values = { ...blank, type: 'date' as const, earliest: '2026-01-01', latest: '2026-12-31' };
    const { properties } = customFieldProperties(values);
    expect(properties).toEqual({ ge: 1767225600, le: 1798675200 });
    const field = { type: 'date', name: 'Start', slug: 'start', properties } as CustomField;
    expect(customFieldFormValues(field)).toMatchObject({ earliest: '2026-01-01', latest: '2026-12-31' });
  });

  it('checks select options: labels and values required, values unique', () => {
    const values = {
      ...blank,
      type: 'select' as const,
      options: [
        { value: 'small', label: 'Small' },
        { value: 'small', label: 'Tiny' },
        { value: '', label: '' },
      ],
    };
    expect(customFieldProperties(values).errors).toEqual({
      'properties.options.1.value': 'Option values must be unique.',
      'properties.options.2.label': 'Enter the label customers see.',
      'properties.options.2.value': 'Enter the value stored.',
    });
  });

  it('sends no placeholder for a checkbox', () => {
    expect(customFieldProperties({ ...blank, type: 'checkbox', placeholder: 'x', label: 'Terms' }).properties).toEqual({
      form_label: 'Terms',
    });
  });
});

describe('bodies', () => {
  it('creates with type, trimmed name and slug, organization and properties', () => {
    const values = { ...blank, type: 'checkbox' as const, name: ' Terms ', slug: 'terms' };
    expect(customFieldCreateBody(values, ORG)).toEqual({
      body: { type: 'checkbox', name: 'Terms', slug: 'terms', organization_id: ORG, properties: {} },
      errors: {},
    });
  });

  it('requires a name and a slug', () => {
    expect(Object.keys(customFieldUpdateBody(blank).errors).sort()).toEqual(['name', 'slug']);
  });

  it('round-trips an existing select field through the form unchanged', () => {
    const field = {
      type: 'select',
      name: 'Plan size',
      slug: 'plan_size',
      properties: { form_label: 'Size', options: [{ value: 's', label: 'Small' }] },
    } as CustomField;
    expect(customFieldUpdateBody(customFieldFormValues(field)).body).toEqual({
      name: 'Plan size',
      slug: 'plan_size',
      properties: { form_label: 'Size', options: [{ value: 's', label: 'Small' }] },
    });
  });
});
