import { ConversionResult, ImportFormat, SourceEntry } from './import.types';
import { convertConfluence } from './sources/confluence-source';
import { convertMarkdown } from './sources/markdown-source';
import { SourceOptions } from './sources/source-context';
import { stripSpacePrefixes } from './sources/titles';
import { convertWikiJs } from './sources/wikijs-source';

/** The request names its format; nothing is guessed from the files. */
export async function convertSources(
  format: ImportFormat,
  entries: SourceEntry[],
  options: SourceOptions,
): Promise<ConversionResult> {
  const result = await convert(format, entries, options);
  // Confluence-converted pages keep the space name before their titles in every format.
  stripSpacePrefixes(result.documents);
  return result;
}

function convert(
  format: ImportFormat,
  entries: SourceEntry[],
  options: SourceOptions,
): Promise<ConversionResult> {
  switch (format) {
    case 'markdown':
      return convertMarkdown(entries, options);
    case 'wikijs':
      return convertWikiJs(entries, options);
    case 'confluence':
      return convertConfluence(entries, options);
  }
}
