import type { AttachedCustomField, CheckoutPublic, CustomFieldType } from '@tessera/sdk';

/**
 * The seller's custom checkout fields: what each one asks, its answer as the form holds it (text for
 * inputs, a boolean for a checkbox), the checks the API will make on it, and its wire value in
 * `custom_field_data` (keyed by the field's slug).
 */

export type CustomFieldAnswer = string | boolean;
export type CustomFieldAnswers = Record<string, CustomFieldAnswer>;
export type CustomFieldValue = string | number | boolean | null;

export interface CheckoutCustomField {
  slug: string;
  type: CustomFieldType;
  label: string;
  helpText?: string;
  placeholder?: string;
  required: boolean;
  /** Text: a multi-line answer. */
  textarea: boolean;
  minLength?: number;
  maxLength?: number;
  /** Number bounds (inclusive). */
  min?: number;
  max?: number;
  /** Date bounds (inclusive), YYYY-MM-DD in UTC as the API compares them. */
  minDate?: string;
  maxDate?: string;
  options: { value: string; label: string }[];
}

const dateOf = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 10);

/** The fields in the seller's order, with their properties read once. */
export function checkoutCustomFields(attached: readonly AttachedCustomField[]): CheckoutCustomField[] {
  return [...attached]
    .sort((a, b) => a.order - b.order)
    .map(({ custom_field: field, required }) => {
      const base = {
        slug: field.slug,
        type: field.type,
        label: field.properties.form_label ?? field.name,
        helpText: field.properties.form_help_text,
        placeholder: field.properties.form_placeholder,
        required,
        textarea: false,
        options: [] as { value: string; label: string }[],
      };
      switch (field.type) {
        case 'text':
          return {
            ...base,
            textarea: field.properties.textarea ?? false,
            minLength: field.properties.min_length,
            maxLength: field.properties.max_length,
          };
        case 'number':
          return { ...base, min: field.properties.ge, max: field.properties.le };
        case 'date':
          return {
            ...base,
            minDate: field.properties.ge === undefined ? undefined : dateOf(field.properties.ge),
            maxDate: field.properties.le === undefined ? undefined : dateOf(field.properties.le),
          };
        case 'select':
          return { ...base, options: field.properties.options.map(({ value, label }) => ({ value, label })) };
        default:
          return base;
      }
    });
}

/** Answers already stored on the checkout (a date comes back as a date-time: its day is kept). */
export function initialAnswers(
  fields: readonly CheckoutCustomField[],
  data: CheckoutPublic['custom_field_data'],
): CustomFieldAnswers {
  const answers: CustomFieldAnswers = {};
  for (const field of fields) {
    const stored = data?.[field.slug];
    if (field.type === 'checkbox') answers[field.slug] = stored === true;
    else if (stored === null || stored === undefined) answers[field.slug] = '';
    else if (field.type === 'date') answers[field.slug] = String(stored).slice(0, 10);
    else answers[field.slug] = String(stored);
  }
  return answers;
}

function isBlank(answer: CustomFieldAnswer | undefined): boolean {
  return answer === undefined || answer === false || (typeof answer === 'string' && answer.trim() === '');
}

function formatDay(day: string): string {
  const [year, month, date] = day.split('-').map(Number);
  return new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' }).format(
    new Date(Date.UTC(year!, month! - 1, date!)),
  );
}

function isCalendarDay(text: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const probe = new Date(Date.UTC(year, month - 1, day));
  return probe.getUTCFullYear() === year && probe.getUTCMonth() === month - 1 && probe.getUTCDate() === day;
}

/** The problem with an answer, in words; undefined when the API will accept it. */
export function validateAnswer(field: CheckoutCustomField, answer: CustomFieldAnswer | undefined): string | undefined {
  if (field.type === 'checkbox') {
    return field.required && answer !== true ? 'Check this box to continue.' : undefined;
  }
  if (isBlank(answer)) return field.required ? 'This field is required.' : undefined;
  const text = String(answer).trim();
  switch (field.type) {
    case 'text': {
      const length = [...String(answer)].length;
      if (field.minLength !== undefined && length < field.minLength)
        return `Enter at least ${field.minLength} characters.`;
      if (field.maxLength !== undefined && length > field.maxLength)
        return `Enter at most ${field.maxLength} characters.`;
      return undefined;
    }
    case 'number': {
      if (!/^[-+]?\d+$/.test(text) || !Number.isSafeInteger(Number(text))) return 'Enter a whole number.';
      const value = Number(text);
      if (field.min !== undefined && value < field.min) return `Enter a number of at least ${field.min}.`;
      if (field.max !== undefined && value > field.max) return `Enter a number of at most ${field.max}.`;
      return undefined;
    }
    case 'date':
      if (!isCalendarDay(text)) return 'Enter a valid date.';
      if (field.minDate !== undefined && text < field.minDate)
        return `Choose a date on or after ${formatDay(field.minDate)}.`;
      if (field.maxDate !== undefined && text > field.maxDate)
        return `Choose a date on or before ${formatDay(field.maxDate)}.`;
      return undefined;
    case 'select':
      return field.options.some((option) => option.value === text) ? undefined : 'Choose one of the options.';
  }
}

/** The wire value of an answer that passed `validateAnswer` (a blank answer is null). */
export function answerValue(field: CheckoutCustomField, answer: CustomFieldAnswer | undefined): CustomFieldValue {
  if (field.type === 'checkbox') return answer === true;
  if (isBlank(answer)) return null;
  const text = String(answer);
  if (field.type === 'number') return Number(text.trim());
  if (field.type === 'text') return text;
  return text.trim();
}

/**
 * `custom_field_data` for a request. With `onlyValid`, answers that would be refused are left out, so a
 * background update never fails on a half-typed answer (the stored one is kept until it is valid).
 */
export function customFieldData(
  fields: readonly CheckoutCustomField[],
  answers: CustomFieldAnswers,
  { onlyValid }: { onlyValid: boolean },
): Record<string, CustomFieldValue> {
  const data: Record<string, CustomFieldValue> = {};
  for (const field of fields) {
    const answer = answers[field.slug];
    // Required-ness is checked at confirm only; a blank required answer is still a valid draft.
    const draftField = onlyValid ? { ...field, required: false } : field;
    if (onlyValid && validateAnswer(draftField, answer) !== undefined) continue;
    data[field.slug] = answerValue(field, answer);
  }
  return data;
}

/** Every custom-field problem, keyed `custom_field_data.<slug>` as the API's errors are. */
export function customFieldErrors(
  fields: readonly CheckoutCustomField[],
  answers: CustomFieldAnswers,
): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const field of fields) {
    const error = validateAnswer(field, answers[field.slug]);
    if (error) errors[`custom_field_data.${field.slug}`] = error;
  }
  return errors;
}
