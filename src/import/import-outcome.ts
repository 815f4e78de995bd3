import { posix } from 'node:path';
import type { FieldProblem } from '../common/problems/problem';
import type { MediaKindOf } from './reference-resolver';
import type { ConversionResult, ImportFormat, SourceEntry } from './import.types';

const DOCUMENTS: Record<ImportFormat, string> = {
  markdown: 'Markdown documents (.md, .markdown)',
  wikijs: 'Wiki.js pages (JSON, or storage files .md/.html with front matter)',
  confluence:
    'Confluence pages (an HTML or XML space export, .html pages or Confluence-converted .md)',
};

/**
 * When nothing in the upload is a document of the format: one problem per uploaded file,
 * naming it and what it holds, never a bare "no documents".
 */
export function noDocumentProblems(format: ImportFormat, entries: SourceEntry[]): FieldProblem[] {
  const byUpload = new Map<string, string[]>();
  for (const entry of entries) {
    const list = byUpload.get(entry.upload) ?? [];
    list.push(entry.path);
    byUpload.set(entry.upload, list);
  }
  if (byUpload.size === 0)
    return [
      { field: 'files', code: 'no_documents', message: `The files hold no ${DOCUMENTS[format]}.` },
    ];
  return [...byUpload].map(([upload, paths]) => {
    const loose = paths.length === 1 && paths[0] === upload;
    const shown = paths
      .slice(0, 5)
      .map((p) => posix.basename(p))
      .join(', ');
    const more = paths.length > 5 ? `, … (${paths.length} files)` : '';
    return {
      field: `files[${upload}]`,
      code: 'no_documents',
      message: loose
        ? `"${upload}" is not one of the ${DOCUMENTS[format]} that format=${format} imports.`
        : `"${upload}" holds no ${DOCUMENTS[format]}; it holds ${shown}${more}.`,
    };
  });
}

/** Files of the upload that no page references and that will not be stored, with the reason. */
export function ignoredFiles(
  conversion: ConversionResult,
  stored: Map<string, MediaKindOf>,
): { path: string; reason: string }[] {
  const ignored: { path: string; reason: string }[] = [];
  for (const path of conversion.assets.keys()) {
    if (stored.has(path)) continue;
    ignored.push({
      path,
      reason: conversion.notPages?.get(path) ?? 'Not a page, and no page references it.',
    });
  }
  return ignored.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
