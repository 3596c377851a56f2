import { z } from 'zod/v4';

/**
 * Metadata as the reference validates it: at most 50 keys of 1–40 characters; values a string of
 * 1–500 characters, an integer, a number or a boolean.
 */
export const MetadataValue = z.union([z.string().min(1).max(500), z.int(), z.number(), z.boolean()]);

export const MetadataInput = z
  .record(z.string().min(1).max(40), MetadataValue)
  .refine((value) => Object.keys(value).length <= 50, { message: 'Metadata can hold at most 50 keys' });

export const MetadataOutput = z.record(z.string(), z.union([z.string(), z.int(), z.number(), z.boolean()]));

export type Metadata = z.output<typeof MetadataOutput>;
