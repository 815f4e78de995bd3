import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { PageQueryDto } from '../../common/http/page-query.dto';

export class NotificationQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: ['true', 'false'], description: 'true: only unread notices' })
  @IsOptional()
  @IsIn(['true', 'false'])
  unread?: 'true' | 'false';
}
