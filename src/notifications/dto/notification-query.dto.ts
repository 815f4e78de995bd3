import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { ListQueryDto } from '../../common/http/list-query.dto';

export class NotificationQueryDto extends ListQueryDto {
  @ApiPropertyOptional({ enum: ['true', 'false'], description: 'true: only unread notices' })
  @IsOptional()
  @IsIn(['true', 'false'])
  unread?: 'true' | 'false';
}
