import { useQuery } from '@tanstack/react-query';
import { api, unwrap, unwrapFile } from '../../../api/client';

/** The variables this page's print may override, with their saved values. */
export function usePrintVariables(slug: string) {
  return useQuery({
    queryKey: ['/export/variables/{slug}', slug],
    queryFn: () => unwrap(api.GET('/export/variables/{slug}', { params: { path: { slug } } })),
    // Saved values may have changed since the dialog was last open.
    staleTime: 0,
    gcTime: 0,
  });
}

export function previewPrint(slug: string, variables: Record<string, string>) {
  return unwrap(
    api.POST('/export/preview/{slug}', { params: { path: { slug } }, body: { variables } }),
  );
}

export function downloadPdf(slug: string, variables: Record<string, string>) {
  return unwrapFile(
    api.POST('/export/pdf/{slug}', {
      params: { path: { slug } },
      body: { variables },
      parseAs: 'blob',
    }),
    `${slug.split('/').pop()}.pdf`,
  );
}
