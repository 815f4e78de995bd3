import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../api/client';
import type { components } from '../../../api/kb-api';

type Schemas = components['schemas'];
export type McpSettings = Schemas['McpSettingsResponse'];
export type McpSettingsChange = Schemas['McpSettingsDto'];
const mcpKey = ['/api/mcp/settings'] as const;

/** Whether /mcp is on and which tools it offers (administrators). */
export function useMcpSettings() {
  return useQuery({
    queryKey: mcpKey,
    queryFn: () => unwrap(api.GET('/api/mcp/settings')),
  });
}

export function useSaveMcpSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: McpSettingsChange) => unwrap(api.PUT('/api/mcp/settings', { body })),
    onSuccess: (saved) => queryClient.setQueryData(mcpKey, saved),
  });
}
