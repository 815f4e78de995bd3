import { api, unwrapFile } from '../../../api/client';

/** The archive of the named pages (all pages when `slugs` is undefined) as a file. */
export function exportArchive(slugs?: string[]) {
  return unwrapFile(
    api.POST('/api/export/archive', {
      body: slugs ? { slugs } : {},
      parseAs: 'blob',
    }),
    'kb-archive.zip',
  );
}
