import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import { OptionalNotNull } from '../../common/problems/optional';
import { LIFECYCLES, type Lifecycle } from '../model/page-columns';

export class TemplateFieldDto {
  @ApiProperty({ description: 'the placeholder `{{name}}` it fills', example: 'service' })
  @IsString()
  name: string;

  @ApiProperty({ description: 'what the person creating a page is asked', example: 'Service' })
  @IsString()
  @MaxLength(200)
  label: string;
}

/** PUT /api/templates/{name}: the whole template. */
export class PageTemplateBodyDto {
  @ApiProperty({ maxLength: 255, example: 'Runbook' })
  @IsString()
  title: string;

  @ApiPropertyOptional({ maxLength: 1000 })
  @OptionalNotNull()
  @IsString()
  description?: string;

  @ApiProperty({
    description:
      'Markdown; `{{date}}`, `{{author}}`, `{{title}}` and the prompted fields are filled when a page is created from it',
  })
  @IsString()
  content: string;

  @ApiPropertyOptional({ type: [TemplateFieldDto], description: 'prompted fields' })
  @OptionalNotNull()
  @IsArray()
  @ArrayMaxSize(20)
  @ValidateNested({ each: true })
  @Type(() => TemplateFieldDto)
  fields?: TemplateFieldDto[];

  @ApiPropertyOptional({ type: [String], description: 'preset tags' })
  @OptionalNotNull()
  @IsArray()
  @ArrayMaxSize(200)
  @IsString({ each: true })
  tags?: string[];

  @ApiPropertyOptional({ type: [String], description: 'preset groups' })
  @OptionalNotNull()
  @IsArray()
  @ArrayMaxSize(100)
  @IsString({ each: true })
  groups?: string[];

  @ApiPropertyOptional({ type: String, nullable: true, description: 'preset owner (username)' })
  @IsOptional()
  @IsString()
  owner?: string | null;

  @ApiPropertyOptional({ type: 'integer', nullable: true, minimum: 1, maximum: 3650 })
  @IsOptional()
  @IsInt()
  reviewIntervalDays?: number | null;

  @ApiPropertyOptional({
    enum: LIFECYCLES,
    enumName: 'Lifecycle',
    nullable: true,
    description: 'preset lifecycle',
  })
  @IsOptional()
  @IsString()
  @IsIn(LIFECYCLES)
  lifecycle?: Lifecycle | null;
}

/** POST /api/templates. */
export class CreatePageTemplateDto extends PageTemplateBodyDto {
  @ApiProperty({ description: 'lowercase letters, digits and `-`', example: 'runbook' })
  @IsString()
  name: string;
}

export class PageTemplateResponse {
  @ApiProperty() name: string;
  @ApiProperty() title: string;
  @ApiProperty() description: string;
  @ApiProperty() content: string;
  @ApiProperty({ type: [TemplateFieldDto] }) fields: TemplateFieldDto[];
  @ApiProperty({ type: [String] }) tags: string[];
  @ApiProperty({ type: [String] }) groups: string[];
  @ApiProperty({ type: String, nullable: true }) owner: string | null;
  @ApiProperty({ type: 'integer', nullable: true }) reviewIntervalDays: number | null;
  @ApiProperty({ enum: LIFECYCLES, nullable: true })
  lifecycle: Lifecycle | null;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
}

export class PageTemplateList {
  @ApiProperty({ type: [PageTemplateResponse] }) items: PageTemplateResponse[];
  @ApiProperty({ type: String, nullable: true }) nextCursor: string | null;
}
