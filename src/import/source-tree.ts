import { readFile } from 'node:fs/promises';
import { posix } from 'node:path';
import { FieldProblem } from '../common/problems/problem';
import { ImportBudget } from './import-budget';
import { SourceEntry } from './import.types';
import { pacer } from './pace';
import { checkEntryName } from './zip/entry-names';
import {
  bufferSource,
  fileSource,
  gunzipWithBudget,
  readZipDirectory,
  readZipEntry,
  ZipFormatError,
  ZipSource,
} from './zip/zip-reader';

/** An uploaded file as the multipart intake left it on disk. */
export interface UploadedFile {
  /** The client's file name, already checked by checkEntryName. */
  name: string;
  tempPath: string;
  size: number;
}

export interface ExpandedSources {
  entries: SourceEntry[];
  /** Archive-level refusals (hostile names, corrupt archives): the request fails as a whole. */
  problems: FieldProblem[];
}

/** Nested archives inside archives are unpacked at most this deep. */
const MAX_NESTING = 3;

const ZIP_MAGIC = 0x04034b50;
const EMPTY_ZIP_MAGIC = 0x06054b50;

function looksLikeZip(name: string, head: Buffer): boolean {
  if (/\.zip$/i.test(name)) return true;
  return (
    head.length >= 4 &&
    (head.readUInt32LE(0) === ZIP_MAGIC || head.readUInt32LE(0) === EMPTY_ZIP_MAGIC)
  );
}

function fileField(name: string): string {
  return `files[${name}]`;
}

/**
 * Turns the uploads into one list of files: loose files as they are, ZIPs (nested ones
 * included, unpacked where they lie) and `.gz` files decompressed, all under one budget.
 */
export async function expandUploads(
  uploads: UploadedFile[],
  budget: ImportBudget,
): Promise<ExpandedSources> {
  const entries: SourceEntry[] = [];
  const problems: FieldProblem[] = [];
  for (const upload of uploads) {
    budget.countEntries(1);
    const head = await readHead(upload.tempPath);
    if (looksLikeZip(upload.name, head)) {
      const source = await fileSource(upload.tempPath);
      try {
        await expandZip(source, upload.name, '', upload.name, 1, budget, entries, problems);
      } finally {
        await source.close();
      }
      continue;
    }
    budget.consumeBytes(upload.size);
    const data = await readFile(upload.tempPath);
    await addFile(upload.name, upload.name, data, budget, entries, problems, 1);
  }
  return { entries, problems };
}

async function readHead(path: string): Promise<Buffer> {
  const source = await fileSource(path);
  try {
    return await source.read(0, 4);
  } finally {
    await source.close();
  }
}

async function addFile(
  path: string,
  upload: string,
  data: Buffer,
  budget: ImportBudget,
  entries: SourceEntry[],
  problems: FieldProblem[],
  depth: number,
): Promise<void> {
  if (/\.gz$/i.test(path) && data.length >= 2 && data[0] === 0x1f && data[1] === 0x8b) {
    try {
      const inflated = await gunzipWithBudget(data, budget);
      await addFile(path.replace(/\.gz$/i, ''), upload, inflated, budget, entries, problems, depth);
    } catch (error) {
      if (!(error instanceof ZipFormatError)) throw error;
      problems.push({
        field: fileField(path),
        code: 'gzip_corrupt',
        message: `"${path}" ${error.message}.`,
      });
    }
    return;
  }
  if (looksLikeZip(path, data.subarray(0, 4))) {
    if (depth > MAX_NESTING) {
      problems.push({
        field: fileField(upload),
        code: 'zip_too_deep',
        message: `"${path}" nests archives more than ${MAX_NESTING} levels deep.`,
      });
      return;
    }
    const folder = posix.dirname(path);
    await expandZip(
      bufferSource(data),
      path,
      folder === '.' ? '' : `${folder}/`,
      upload,
      depth + 1,
      budget,
      entries,
      problems,
    );
    return;
  }
  entries.push({ path, upload, data });
}

async function expandZip(
  source: ZipSource,
  label: string,
  base: string,
  upload: string,
  depth: number,
  budget: ImportBudget,
  entries: SourceEntry[],
  problems: FieldProblem[],
): Promise<void> {
  const field = fileField(label);
  let listing;
  try {
    listing = await readZipDirectory(source, budget);
  } catch (error) {
    if (!(error instanceof ZipFormatError)) throw error;
    problems.push({ field, code: error.code, message: `"${label}" ${error.message}.` });
    return;
  }
  const accepted: { path: string; info: (typeof listing)[number] }[] = [];
  const refusals: FieldProblem[] = [];
  for (const info of listing) {
    if (info.isSymlink) {
      refusals.push({
        field,
        code: 'unsafe_entry_link',
        message: `"${label}" holds a symbolic link "${info.name}"; links are refused.`,
      });
      continue;
    }
    const check = checkEntryName(info.name, info.isDirectory);
    if (check.kind === 'refused') {
      refusals.push({
        field,
        code: check.code,
        message: `"${label}" holds an entry "${info.name}" that ${check.reason}; it is refused.`,
      });
    } else if (check.kind === 'ok') {
      accepted.push({ path: base + check.path, info });
    }
  }
  // A hostile name refuses the archive before anything of it is inflated.
  if (refusals.length > 0) {
    problems.push(...refusals);
    return;
  }
  if (accepted.length === 0) {
    problems.push({ field, code: 'zip_empty', message: `"${label}" holds no files.` });
    return;
  }
  // Small entries inflate synchronously and the upload is in memory: without a yield between
  // entries a 10,000-entry archive inflated in one 300-450 ms slice of the event loop.
  const tick = pacer();
  for (const { path, info } of accepted) {
    await tick();
    let data: Buffer;
    try {
      data = await readZipEntry(source, info, budget);
    } catch (error) {
      if (!(error instanceof ZipFormatError)) throw error;
      problems.push({ field, code: error.code, message: `"${label}" ${error.message}.` });
      return;
    }
    await addFile(path, upload, data, budget, entries, problems, depth);
  }
}

const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/** Strict UTF-8 (a BOM is dropped); undefined when the bytes are not UTF-8. */
export function decodeUtf8(data: Buffer): string | undefined {
  try {
    return decoder.decode(data);
  } catch {
    return undefined;
  }
}
