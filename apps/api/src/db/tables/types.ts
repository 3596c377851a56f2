import type { ColumnType } from 'kysely';

/** Column helpers shared by the table files. JSON columns are written as strings, read as values. */
export type Json = ColumnType<unknown, string, string>;
export type NullableJson = ColumnType<unknown, string | null | undefined, string | null>;
export type Timestamp = ColumnType<Date, Date, Date>;
export type NullableTimestamp = ColumnType<Date | null, Date | null | undefined, Date | null>;
