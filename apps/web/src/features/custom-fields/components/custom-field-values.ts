import type {
  CustomField,
  CustomFieldCreate,
  CustomFieldSelectOption,
  CustomFieldType,
  CustomFieldUpdate,
} from '@tessera/sdk';

/** Words for each type; the Record makes a type added to the API a type error here until described. */
export const CUSTOM_FIELD_TYPES: Record<CustomFieldType, { label: string; description: string }> = {
  text: { label: 'Text', description: 'A line or a paragraph of text.' },
  number: { label: 'Number', description: 'A whole number, optionally within bounds.' },
  date: { label: 'Date', description: 'A calendar date, optionally within a range.' },
  checkbox: { label: 'Checkbox', description: 'A yes/no box, such as accepting terms.' },
  select: { label: 'Select', description: 'One choice from a list of options.' },
};

export const CUSTOM_FIELD_TYPE_OPTIONS = (Object.keys(CUSTOM_FIELD_TYPES) as CustomFieldType[]).map((type) => ({
  value: type,
  label: CUSTOM_FIELD_TYPES[type].label,
}));

/** Everything the form edits, as text; properties of the other types are kept but not sent. */
export interface CustomFieldFormValues {
  type: CustomFieldType;
  name: string;
  slug: string;
  label: string;
  placeholder: string;
  helpText: string;
  textarea: boolean;
  minLength: string;
  maxLength: string;
  /** Number bounds (`ge`/`le`). */
  minimum: string;
  maximum: string;
  /** Date bounds as `YYYY-MM-DD` (`ge`/`le` are Unix seconds on the wire). */
  earliest: string;
  latest: string;
  options: CustomFieldSelectOption[];
}

/** The key answers are stored under: lower-case letters, digits and underscores, from the name. */
export function fieldSlug(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/\p{Mn}/gu, '') // accents split off by NFKD: "É" → "E"
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
}

const text = (value: number | undefined) => (value === undefined ? '' : String(value));
const day = (seconds: number | undefined) =>
  seconds === undefined ? '' : new Date(seconds * 1000).toISOString().slice(0, 10);

export function customFieldFormValues(field?: CustomField): CustomFieldFormValues {
  const values: CustomFieldFormValues = {
    type: field?.type ?? 'text',
    name: field?.name ?? '',
    slug: field?.slug ?? '',
    label: field?.properties.form_label ?? '',
    placeholder: field?.properties.form_placeholder ?? '',
    helpText: field?.properties.form_help_text ?? '',
    textarea: false,
    minLength: '',
    maxLength: '',
    minimum: '',
    maximum: '',
    earliest: '',
    latest: '',
    options: [{ value: '', label: '' }],
  };
  if (field?.type === 'text') {
    values.textarea = field.properties.textarea ?? false;
    values.minLength = text(field.properties.min_length);
    values.maxLength = text(field.properties.max_length);
  } else if (field?.type === 'number') {
    values.minimum = text(field.properties.ge);
    values.maximum = text(field.properties.le);
  } else if (field?.type === 'date') {
    values.earliest = day(field.properties.ge);
    values.latest = day(field.properties.le);
  } else if (field?.type === 'select') {
    values.options = field.properties.options.map((option) => ({ ...option }));
  }
  return values;
}

type Errors = Record<string, string>;

/** `''` → undefined; otherwise an integer or an error under `key`. */
function integer(textValue: string, key: string, errors: Errors, allowNegative: boolean): number | undefined {
  const trimmed = textValue.trim();
  if (trimmed === '') return undefined;
  if (!(allowNegative ? /^-?\d+$/ : /^\d+$/).test(trimmed)) {
    errors[key] = allowNegative ? 'Enter a whole number.' : 'Enter a whole number, 0 or more.';
    return undefined;
  }
  return Number(trimmed);
}

function unixSeconds(date: string): number | undefined {
  return date
    ? Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10))) / 1000
    : undefined;
}

/** Optional keys are left out rather than sent empty (the API refuses empty strings). */
function withoutEmpty<T extends Record<string, unknown>>(object: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(object).filter(([, value]) => value !== undefined && value !== '' && value !== false),
  ) as Partial<T>;
}

/** The properties object of the chosen type, with the problems found before sending (keyed like the API's). */
export function customFieldProperties(values: CustomFieldFormValues): {
  properties: Record<string, unknown>;
  errors: Errors;
} {
  const errors: Errors = {};
  const common = {
    form_label: values.label.trim(),
    form_placeholder: values.placeholder.trim(),
    form_help_text: values.helpText.trim(),
  };
  switch (values.type) {
    case 'text': {
      const min = integer(values.minLength, 'properties.min_length', errors, false);
      const max = integer(values.maxLength, 'properties.max_length', errors, false);
      if (min !== undefined && max !== undefined && min > max)
        errors['properties.max_length'] = 'Must be at least the minimum length.';
      return {
        properties: withoutEmpty({ ...common, textarea: values.textarea, min_length: min, max_length: max }),
        errors,
      };
    }
    case 'number': {
      const ge = integer(values.minimum, 'properties.ge', errors, true);
      const le = integer(values.maximum, 'properties.le', errors, true);
      if (ge !== undefined && le !== undefined && ge > le) errors['properties.le'] = 'Must be at least the minimum.';
      return { properties: withoutEmpty({ ...common, ge, le }), errors };
    }
    case 'date': {
      const ge = unixSeconds(values.earliest);
      const le = unixSeconds(values.latest);
      if (ge !== undefined && le !== undefined && ge > le)
        errors['properties.le'] = 'Must be on or after the earliest date.';
      return { properties: withoutEmpty({ ...common, ge, le }), errors };
    }
    case 'checkbox':
      // A checkbox shows no placeholder.
      return { properties: withoutEmpty({ ...common, form_placeholder: '' }), errors };
    case 'select': {
      const options = values.options.map((option) => ({ value: option.value.trim(), label: option.label.trim() }));
      const seen = new Set<string>();
      options.forEach((option, index) => {
        if (!option.label) errors[`properties.options.${index}.label`] = 'Enter the label customers see.';
        if (!option.value) errors[`properties.options.${index}.value`] = 'Enter the value stored.';
        else if (seen.has(option.value)) errors[`properties.options.${index}.value`] = 'Option values must be unique.';
        seen.add(option.value);
      });
      if (options.length === 0) errors['properties.options'] = 'Add at least one option.';
      return { properties: { ...withoutEmpty(common), options }, errors };
    }
  }
}

function baseErrors(values: CustomFieldFormValues): Errors {
  const errors: Errors = {};
  if (!values.name.trim()) errors.name = 'Enter a name.';
  if (!values.slug.trim()) errors.slug = 'Enter a slug.';
  return errors;
}

export function customFieldCreateBody(
  values: CustomFieldFormValues,
  organizationId: string,
): { body: CustomFieldCreate; errors: Errors } {
  const { properties, errors } = customFieldProperties(values);
  // The properties were built for `values.type`; the union cannot see that through the switch.
  const body = {
    type: values.type,
    name: values.name.trim(),
    slug: values.slug.trim(),
    organization_id: organizationId,
    properties,
  } as CustomFieldCreate;
  return { body, errors: { ...baseErrors(values), ...errors } };
}

export function customFieldUpdateBody(values: CustomFieldFormValues): { body: CustomFieldUpdate; errors: Errors } {
  const { properties, errors } = customFieldProperties(values);
  return {
    body: { name: values.name.trim(), slug: values.slug.trim(), properties },
    errors: { ...baseErrors(values), ...errors },
  };
}
