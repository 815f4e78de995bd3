const KIB = 1024;
const MIB = 1024 * 1024;

/** A size for people, as the server words it (src/common/text/byte-size.ts): "3.1 MiB". */
export function describeBytes(bytes: number): string {
  const amount = (value: number) => String(Math.round(value * 10) / 10);
  if (bytes < KIB) return bytes === 1 ? '1 byte' : `${bytes} bytes`;
  if (bytes < MIB) return `${amount(bytes / KIB)} KiB`;
  return `${amount(bytes / MIB)} MiB`;
}

/** UTF-8 bytes of a text, as the server counts a page's size. */
export function utf8Bytes(text: string): number {
  return new TextEncoder().encode(text).length;
}
