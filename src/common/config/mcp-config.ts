import { Env, IsBool } from './env-schema';

export class McpConfig {
  /** MCP_ENABLED: the Model Context Protocol server at /mcp (off: /mcp answers 404). */
  @Env('MCP_ENABLED', 'bool') @IsBool() enabled = true;
}
