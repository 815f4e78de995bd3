import { ConversionResult, ImportFormat, SourceEntry } from './import.types';
import { convertConfluence } from './sources/confluence-source';
import { convertMarkdown } from './sources/markdown-source';
import { SourceOptions } from './sources/source-context';
import { convertWikiJs } from './sources/wikijs-source';

/** The request names its format; nothing is guessed from the files. */
export function convertSources(
  format: ImportFormat,
  entries: SourceEntry[],
  options: SourceOptions,
): ConversionResult {
  switch (format) {
    case 'markdown':
      return convertMarkdown(entries, options);
    case 'wikijs':
      return convertWikiJs(entries, options);
    case 'confluence':
      return convertConfluence(entries, options);
  }
}
