import { PayloadTooLargeProblem } from '../common/problems/problem';

const MIB = 1024 * 1024;

function describe(bytes: number): string {
  return bytes % MIB === 0 ? `${bytes / MIB} MiB` : `${bytes} bytes`;
}

/**
 * The one budget every file of an import request draws on: uncompressed bytes really produced
 * (loose files, inflated ZIP entries, nested ZIPs and their contents) and the number of entries.
 * Passing either limit is a 413 at once, so a ZIP bomb stops after at most `maxBytes` of output.
 */
export class ImportBudget {
  private usedBytes = 0;
  private usedEntries = 0;

  constructor(
    readonly maxBytes: number,
    readonly maxEntries: number,
  ) {}

  get remainingBytes(): number {
    return Math.max(0, this.maxBytes - this.usedBytes);
  }

  get bytesUsed(): number {
    return this.usedBytes;
  }

  consumeBytes(bytes: number): void {
    this.usedBytes += bytes;
    if (this.usedBytes > this.maxBytes) throw this.tooLarge();
  }

  tooLarge(): PayloadTooLargeProblem {
    return new PayloadTooLargeProblem(
      'import_too_large',
      `The files of one import may hold at most ${describe(this.maxBytes)} uncompressed (archives and nested archives included).`,
      { limit: this.maxBytes },
    );
  }

  countEntries(entries: number): void {
    this.usedEntries += entries;
    if (this.usedEntries > this.maxEntries) {
      throw new PayloadTooLargeProblem(
        'import_too_many_entries',
        `One import may hold at most ${this.maxEntries} files and archive entries.`,
        { limit: this.maxEntries },
      );
    }
  }
}
