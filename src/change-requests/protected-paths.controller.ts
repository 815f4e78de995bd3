import { Body, Controller, Get, Put } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AuthUser } from '../common/auth/auth-user';
import { AdminOnly, CurrentUser } from '../common/auth/route-policy';
import { ApiArrayResult } from '../common/openapi/api-result.decorator';
import { BadRequestProblem, FieldProblem, FieldProblems } from '../common/problems/problem';
import { createValidationPipe } from '../common/problems/validation';
import { ProtectedPath, ProtectedPathsService } from '../pages/public-api';
import { ProtectedPathDto, ProtectedPathResponse } from './dto/change-request.dto';

/** Protected paths (docs/review.md): administrators only. */
@ApiTags('change-requests')
@AdminOnly()
@Controller('api/protected-paths')
export class ProtectedPathsController {
  private readonly pipe = createValidationPipe();

  constructor(private readonly rules: ProtectedPathsService) {}

  @Get()
  @ApiOperation({ summary: 'The protected slug prefixes and the approvals each asks for' })
  @ApiArrayResult(ProtectedPathResponse)
  listProtectedPaths(): Promise<ProtectedPathResponse[]> {
    return this.rules.list();
  }

  @Put()
  @ApiOperation({
    summary: 'Replace the protected paths (the whole list)',
    description:
      'Under a prefix, editors change pages only through change requests (409 `change_request_required` on a direct write), ' +
      'which need `approvals` approvals (by members of `groups` or by `users` when given). Administrators may still write directly; such writes are audited.',
  })
  @ApiBody({ type: [ProtectedPathDto] })
  @ApiArrayResult(ProtectedPathResponse)
  async replaceProtectedPaths(
    @CurrentUser() user: AuthUser,
    @Body() body: unknown[],
  ): Promise<ProtectedPathResponse[]> {
    if (!Array.isArray(body))
      throw new BadRequestProblem(
        'invalid_body',
        'The request body must be a JSON array of rules.',
      );
    const rules: ProtectedPath[] = [];
    const problems: FieldProblem[] = [];
    for (const [i, item] of body.entries()) {
      try {
        const rule = (await this.pipe.transform(item, {
          type: 'body',
          metatype: ProtectedPathDto,
        })) as ProtectedPathDto;
        rules.push({ ...rule, groups: rule.groups ?? [], users: rule.users ?? [] });
      } catch (error) {
        if (!(error instanceof FieldProblems)) throw error;
        problems.push(...error.errors.map((e) => ({ ...e, field: `${i}.${e.field}` })));
      }
    }
    if (problems.length > 0) throw new FieldProblems(problems);
    return this.rules.replace(rules, user);
  }
}
