import { ImportOptions, ImportReport } from './import.types';

export function emptyReport(options: ImportOptions): ImportReport {
  return {
    format: options.format,
    dryRun: options.dryRun,
    created: [],
    replaced: [],
    unchanged: [],
    binned: [],
    skipped: [],
    images: [],
    attachments: [],
    unresolvedLinks: [],
    unresolvedImages: [],
    refusedFiles: [],
    storedAsAttachment: [],
    siteVariables: [],
    ignored: [],
    macros: [],
    counts: {
      created: 0,
      replaced: 0,
      unchanged: 0,
      binned: 0,
      skipped: 0,
      images: 0,
      attachments: 0,
      unresolvedLinks: 0,
      unresolvedImages: 0,
      refusedFiles: 0,
      storedAsAttachment: 0,
      siteVariables: 0,
      ignored: 0,
      macros: 0,
    },
  };
}

/** The 200 body: lists as collected, counts derived from them. */
export function finishReport(report: ImportReport): ImportReport {
  return {
    ...report,
    counts: {
      created: report.created.length,
      replaced: report.replaced.length,
      unchanged: report.unchanged.length,
      binned: report.binned.length,
      skipped: report.skipped.length,
      images: report.images.length,
      attachments: report.attachments.length,
      unresolvedLinks: report.unresolvedLinks.length,
      unresolvedImages: report.unresolvedImages.length,
      refusedFiles: report.refusedFiles.length,
      storedAsAttachment: report.storedAsAttachment.length,
      siteVariables: report.siteVariables.length,
      ignored: report.ignored.length,
      macros: report.macros.length,
    },
  };
}
