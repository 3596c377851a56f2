import { randomBytes } from 'node:crypto';

let last = 0;
let counter = 0;

/**
 * A UUID version 7 (RFC 9562): the time in milliseconds, then a counter within the millisecond, then
 * random bits. Ids of one process sort in the order they were made, which orders a subscription's
 * changes written at the same clock time (in one transaction, or under a test clock that stands still).
 */
export function orderedUuid(now = Date.now()): string {
  if (now <= last) {
    counter += 1;
  } else {
    last = now;
    counter = 0;
  }
  const bytes = randomBytes(16);
  const time = BigInt(last);
  for (let i = 0; i < 6; i++) bytes[i] = Number((time >> BigInt(8 * (5 - i))) & 0xffn);
  // 12 bits of counter after the version nibble (4096 ids per millisecond, then the clock is borrowed).
  bytes[6] = 0x70 | ((counter >> 8) & 0x0f);
  bytes[7] = counter & 0xff;
  if (counter >= 0xfff) {
    last += 1;
    counter = 0;
  }
  bytes[8] = 0x80 | (bytes[8]! & 0x3f);
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
