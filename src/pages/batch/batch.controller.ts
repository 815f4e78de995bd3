import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { AuthUser } from '../../common/auth/auth-user';
import { CurrentUser, Editors } from '../../common/auth/route-policy';
import { JsonBodyBudget } from '../../common/http/json-budget';
import { Idempotent } from '../../common/idempotency/idempotency.module';
import { ApiProblems, ApiResult } from '../../common/openapi/api-result.decorator';
import { BatchDto, BatchResponse, MAX_BATCH_MEMBERS, MAX_BATCH_OPERATIONS } from './batch.dto';
import { BatchService } from './batch.service';

@ApiTags('pages')
@Controller('api/batch')
export class BatchController {
  constructor(private readonly batch: BatchService) {}

  @Post()
  @Editors()
  @HttpCode(200)
  @Idempotent()
  @JsonBodyBudget({ maxMembers: MAX_BATCH_MEMBERS })
  @ApiOperation({
    summary: 'Apply many page changes in one transaction: all or none',
    description:
      `Operations \`create\`, \`update\` (If-Match as \`ifMatch\`, or \`baseRevision\`), \`move\`, \`bin\` (admin) and \`metadata\` (tags and metadata; \`ifMatch\` optional), applied in order. ` +
      `At most ${MAX_BATCH_OPERATIONS} operations (422 \`too_many_operations\`), each page at most once (422 \`duplicate_slug\`); the JSON body is at most JSON_BODY_LIMIT_BYTES (5 MiB) and ${MAX_BATCH_MEMBERS} members (413). ` +
      'Every operation keeps the rules of its single route (roles, visibility, token paths, protected paths). ' +
      'The first failing operation rolls everything back: the problem carries its `index` and `op` (422 field problems name `operations[i].field`). ' +
      'Events, webhooks and audit lines follow the commit as for single writes. See docs/api.md.',
  })
  @ApiResult(BatchResponse)
  @ApiProblems(403, 404, 409, 412, 428)
  async applyBatch(@CurrentUser() user: AuthUser, @Body() body: BatchDto): Promise<BatchResponse> {
    return { results: await this.batch.apply(body.operations, user) };
  }
}
