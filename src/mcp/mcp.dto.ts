import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { ApiBodyOptions } from '@nestjs/swagger';
import { OpenSchema } from '../common/openapi/open-schema.decorator';

/** A JSON-RPC 2.0 message of the Model Context Protocol (or a batch of them). */
export const MCP_MESSAGE_BODY: ApiBodyOptions = {
  description:
    'A JSON-RPC 2.0 request or notification of the Model Context Protocol (initialize, tools/list, tools/call, resources/read, ...). Send Accept: application/json, text/event-stream.',
  schema: {
    type: 'object',
    required: ['jsonrpc', 'method'],
    properties: {
      jsonrpc: { type: 'string', enum: ['2.0'] },
      id: { oneOf: [{ type: 'string' }, { type: 'integer' }] },
      method: { type: 'string', example: 'tools/call' },
      params: { type: 'object', additionalProperties: true },
    },
  },
};

/** The JSON-RPC answer to a request (a notification is answered 202 without a body). */
@OpenSchema()
export class McpResponse {
  @ApiProperty({ enum: ['2.0'] })
  jsonrpc: '2.0';

  @ApiProperty({ oneOf: [{ type: 'string' }, { type: 'integer' }] })
  id: string | number;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: 'the result (a tool error is a result with isError: true)',
  })
  result?: Record<string, unknown>;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: 'a JSON-RPC error: malformed message, unknown method, ...',
  })
  error?: Record<string, unknown>;
}
