import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../api/client';
import type { components } from '../../../api/kb-api';

export type PageTemplate = components['schemas']['PageTemplateResponse'];

/** GET /api/templates: every template (a handful), with prompted fields and presets. */
export function useTemplates() {
  return useQuery({
    queryKey: ['/api/templates'],
    queryFn: () => unwrap(api.GET('/api/templates')),
    staleTime: 60_000,
  });
}

/** A template's Markdown as a page would show it, placeholders still as written. */
export function useTemplatePreview(template: PageTemplate | null) {
  return useQuery({
    queryKey: ['/api/preview', 'template', template?.name, template?.content],
    enabled: template !== null,
    queryFn: ({ signal }) =>
      unwrap(api.POST('/api/preview', { body: { content: template?.content ?? '' }, signal })),
    staleTime: Infinity,
    retry: false,
  });
}

export interface FromTemplate {
  template: string;
  slug: string;
  title: string;
  values: Record<string, string>;
}

/** POST /api/pages with `template` and `values`: the page starts from the template. */
export function useCreateFromTemplate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: FromTemplate) => unwrap(api.POST('/api/pages', { body })),
    onSuccess: () => {
      for (const queryKey of [['/api/tree'], ['/api/recent'], ['/api/pages'], ['/api/tags']])
        void queryClient.invalidateQueries({ queryKey });
    },
  });
}
