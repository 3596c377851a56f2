import { z } from 'zod/v4';
import { MetadataInput, MetadataOutput } from '../../platform/http/metadata.js';
import { oneOrList, paginationQuery, queryString, sortingQuery } from '../../platform/http/query.js';
import { DateTime, Id, ListResource } from '../../platform/http/schemas.js';

export const CUSTOM_FIELD_TYPES = ['text', 'number', 'date', 'checkbox', 'select'] as const;
export type CustomFieldType = (typeof CUSTOM_FIELD_TYPES)[number];

export const CustomFieldTypeSchema = z.enum(CUSTOM_FIELD_TYPES).meta({ id: 'CustomFieldType' });

const nonEmpty = z.string().min(1, 'String should have at least 1 character');
const nonNegativeInt = z.int().min(0, 'Input should be greater than or equal to 0');

/** Keys every type accepts. Properties are closed objects: a key of another type is a 422. */
const formProperties = {
  form_label: nonEmpty.optional(),
  form_help_text: nonEmpty.optional(),
  form_placeholder: nonEmpty.optional(),
};

export const CustomFieldTextProperties = z
  .strictObject({
    ...formProperties,
    textarea: z.boolean().optional(),
    min_length: nonNegativeInt.optional(),
    max_length: nonNegativeInt.optional(),
  })
  .superRefine((value, ctx) => {
    if (value.min_length !== undefined && value.max_length !== undefined && value.min_length > value.max_length) {
      ctx.addIssue({
        code: 'custom',
        path: ['max_length'],
        message: 'max_length must be greater than or equal to min_length.',
      });
    }
  })
  .meta({ id: 'CustomFieldTextProperties' });

function boundsProperties(id: string) {
  return z
    .strictObject({ ...formProperties, ge: z.int().optional(), le: z.int().optional() })
    .superRefine((value, ctx) => {
      if (value.ge !== undefined && value.le !== undefined && value.ge > value.le) {
        ctx.addIssue({ code: 'custom', path: ['le'], message: 'le must be greater than or equal to ge.' });
      }
    })
    .meta({ id });
}

export const CustomFieldNumberProperties = boundsProperties('CustomFieldNumberProperties');
/** `ge` and `le` of a date field are Unix timestamps in seconds. */
export const CustomFieldDateProperties = boundsProperties('CustomFieldDateProperties');

export const CustomFieldCheckboxProperties = z
  .strictObject({ ...formProperties })
  .meta({ id: 'CustomFieldCheckboxProperties' });

export const CustomFieldSelectOption = z
  .strictObject({ value: nonEmpty, label: nonEmpty })
  .meta({ id: 'CustomFieldSelectOption' });

export const CustomFieldSelectProperties = z
  .strictObject({
    ...formProperties,
    options: z.array(CustomFieldSelectOption).min(1, 'At least one option is required.'),
  })
  .superRefine((value, ctx) => {
    const seen = new Set<string>();
    value.options.forEach((option, index) => {
      if (seen.has(option.value)) {
        ctx.addIssue({ code: 'custom', path: ['options', index, 'value'], message: 'Option values must be unique.' });
      }
      seen.add(option.value);
    });
  })
  .meta({ id: 'CustomFieldSelectProperties' });

/** The properties schema of each type; updates validate against the field's (unchangeable) type. */
export const PROPERTIES_BY_TYPE = {
  text: CustomFieldTextProperties,
  number: CustomFieldNumberProperties,
  date: CustomFieldDateProperties,
  checkbox: CustomFieldCheckboxProperties,
  select: CustomFieldSelectProperties,
} as const satisfies Record<CustomFieldType, z.ZodType>;

export type CustomFieldProperties = z.output<(typeof PROPERTIES_BY_TYPE)[CustomFieldType]>;

/**
 * The key under which values are stored in `custom_field_data`: lower-cased on input, then ASCII
 * letters, digits, hyphens and underscores.
 */
const slug = z
  .string()
  .min(1, { message: 'String should have at least 1 character', abort: true })
  .toLowerCase()
  .regex(/^[a-z0-9_-]+$/, "String should match pattern '^[a-z0-9-_]+$'")
  .meta({ description: 'Key of the value in `custom_field_data`; lower-cased; letters, digits, `-` and `_`.' });
const name = z.string().min(1, 'String should have at least 1 character');

const createBase = {
  metadata: MetadataInput.optional(),
  slug,
  name,
  organization_id: Id()
    .nullable()
    .optional()
    .meta({ description: 'The organization owning the field. Required unless you use an organization token.' }),
};

function createVariant<T extends CustomFieldType>(type: T, properties: (typeof PROPERTIES_BY_TYPE)[T], id: string) {
  return z.object({ ...createBase, type: z.literal(type), properties }).meta({ id });
}

const TAG_MESSAGE = `Input tag found using 'type' does not match any of the expected tags: ${CUSTOM_FIELD_TYPES.map((t) => `'${t}'`).join(', ')}`;

export const CustomFieldCreate = z
  .discriminatedUnion(
    'type',
    [
      createVariant('text', CustomFieldTextProperties, 'CustomFieldCreateText'),
      createVariant('number', CustomFieldNumberProperties, 'CustomFieldCreateNumber'),
      createVariant('date', CustomFieldDateProperties, 'CustomFieldCreateDate'),
      createVariant('checkbox', CustomFieldCheckboxProperties, 'CustomFieldCreateCheckbox'),
      createVariant('select', CustomFieldSelectProperties, 'CustomFieldCreateSelect'),
    ],
    { error: () => TAG_MESSAGE },
  )
  .meta({ id: 'CustomFieldCreate' });
export type CustomFieldCreateInput = z.output<typeof CustomFieldCreate>;

/**
 * `type` cannot change: it may be sent (it must then equal the field's type) or left out. `properties`
 * replace the whole object and are validated against the field's type by the service.
 */
export const CustomFieldUpdate = z
  .object({
    metadata: MetadataInput.optional(),
    name: name.nullable().optional(),
    slug: slug.nullable().optional(),
    type: CustomFieldTypeSchema.optional(),
    properties: z.record(z.string(), z.unknown()).nullable().optional().meta({
      description: "Replaces the properties; the shape of the field's type (e.g. CustomFieldTextProperties).",
    }),
  })
  .meta({ id: 'CustomFieldUpdate' });
export type CustomFieldUpdateInput = z.output<typeof CustomFieldUpdate>;

const outputBase = {
  created_at: DateTime(),
  modified_at: DateTime().nullable(),
  id: z.uuid(),
  metadata: MetadataOutput,
  slug: z.string(),
  name: z.string(),
  organization_id: z.uuid(),
};

function outputVariant<T extends CustomFieldType>(type: T, properties: (typeof PROPERTIES_BY_TYPE)[T], id: string) {
  return z.object({ ...outputBase, type: z.literal(type), properties }).meta({ id });
}

export const CustomFieldText = outputVariant('text', CustomFieldTextProperties, 'CustomFieldText');
export const CustomFieldNumber = outputVariant('number', CustomFieldNumberProperties, 'CustomFieldNumber');
export const CustomFieldDate = outputVariant('date', CustomFieldDateProperties, 'CustomFieldDate');
export const CustomFieldCheckbox = outputVariant('checkbox', CustomFieldCheckboxProperties, 'CustomFieldCheckbox');
export const CustomFieldSelect = outputVariant('select', CustomFieldSelectProperties, 'CustomFieldSelect');

export const CustomField = z
  .discriminatedUnion('type', [
    CustomFieldText,
    CustomFieldNumber,
    CustomFieldDate,
    CustomFieldCheckbox,
    CustomFieldSelect,
  ])
  .meta({ id: 'CustomField' });

export const ListResourceCustomField = ListResource(CustomField, 'ListResourceCustomField');

export const CUSTOM_FIELD_SORT_KEYS = ['created_at', 'slug', 'name', 'type'] as const;

export const CustomFieldListQuery = z.object({
  organization_id: oneOrList(Id()),
  /** Contained in the name or the slug, case-insensitively. */
  query: queryString(),
  type: oneOrList(z.enum(CUSTOM_FIELD_TYPES)),
  ...paginationQuery,
  // The reference sorts by slug unless told otherwise.
  sorting: sortingQuery(CUSTOM_FIELD_SORT_KEYS, ['slug']),
});
export type CustomFieldListParams = z.output<typeof CustomFieldListQuery>;
