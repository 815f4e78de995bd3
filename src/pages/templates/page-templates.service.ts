import { Injectable } from '@nestjs/common';
import type { AuthUser } from '../../common/auth/auth-user';
import type { Tx } from '../../common/database/database';
import { Created, locationOf } from '../../common/http/created';
import {
  ConflictProblem,
  FieldProblem,
  FieldProblems,
  NotFoundProblem,
} from '../../common/problems/problem';
import type { CreatePageDto } from '../dto/page.dto';
import {
  CreatePageTemplateDto,
  PageTemplateBodyDto,
  PageTemplateResponse,
} from './page-template.dto';
import {
  PageTemplateRow,
  PageTemplatesRepository,
  TemplateField,
} from './page-templates.repository';

const NAME = /^[a-z0-9][a-z0-9-]{0,99}$/;
const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
/** Filled from the page being created, never asked for. */
const BUILT_IN = new Set(['date', 'author', 'title']);
const MAX_CONTENT = 100_000;
const MAX_VALUE = 10_000;

function toResponse(row: PageTemplateRow): PageTemplateResponse {
  return {
    name: row.name,
    title: row.title,
    description: row.description,
    content: row.content,
    fields: row.fields,
    tags: row.tags,
    groups: row.groups,
    owner: row.owner,
    reviewIntervalDays: row.reviewIntervalDays,
    lifecycle: row.lifecycle as PageTemplateResponse['lifecycle'],
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** `{{name}}` (or `{{ name }}`) of one of `values`, replaced in one pass. */
function fill(content: string, values: Record<string, string>): string {
  return content.replace(/\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g, (all, name: string) =>
    Object.prototype.hasOwnProperty.call(values, name) ? values[name] : all,
  );
}

/** A page create's fields from a template: `template` and `values` of POST /api/pages. */
export interface TemplateRequest {
  template?: string;
  values?: Record<string, unknown>;
}

/**
 * Page templates (docs/pages.md, "Templates"): administrators and editors keep them; a page
 * created with `template` starts from its Markdown (placeholders filled) and its presets.
 */
@Injectable()
export class PageTemplatesService {
  constructor(private readonly templates: PageTemplatesRepository) {}

  async list(): Promise<{ items: PageTemplateResponse[]; nextCursor: null }> {
    return { items: (await this.templates.list()).map(toResponse), nextCursor: null };
  }

  /** CONTRACTS: every template as stored (archives). */
  async all(tx?: Tx): Promise<PageTemplateResponse[]> {
    return (await this.templates.list(tx)).map(toResponse);
  }

  async create(body: CreatePageTemplateDto): Promise<Created<PageTemplateResponse>> {
    const row = this.validated(body.name, body, true);
    if (!(await this.templates.insert(row)))
      throw new ConflictProblem('template_exists', `A template named "${row.name}" exists.`);
    return new Created(toResponse(row), locationOf('templates', row.name));
  }

  async replace(name: string, body: PageTemplateBodyDto): Promise<PageTemplateResponse> {
    const row = this.validated(name, body, false);
    if (!(await this.templates.replace(row, false))) throw new NotFoundProblem('template');
    return toResponse(row);
  }

  async remove(name: string): Promise<void> {
    if (!(await this.templates.remove(name))) throw new NotFoundProblem('template');
  }

  /**
   * CONTRACTS: stores archived templates in the caller's transaction (a kb-archive import),
   * replacing those of the same name; invalid ones are left out. Answers how many were stored.
   */
  async restoreWithin(tx: Tx, templates: unknown[]): Promise<number> {
    let stored = 0;
    for (const item of templates) {
      const body = item as CreatePageTemplateDto;
      let row: PageTemplateRow;
      try {
        row = this.validated(String(body?.name ?? ''), body, true);
      } catch {
        continue;
      }
      await this.templates.replace(row, true, tx);
      stored++;
    }
    return stored;
  }

  /**
   * The page to create from `request.template`: its Markdown with `{{date}}`, `{{author}}`,
   * `{{title}}` and the prompted fields filled from `values` (other `{{names}}` stay: page
   * variables), and its presets where the request sets nothing. 422 for an unknown template,
   * a missing or unknown value, or content sent with a template.
   */
  async apply<T extends CreatePageDto>(
    body: T & TemplateRequest,
    user: AuthUser,
  ): Promise<CreatePageDto> {
    const { template, values, ...page } = body;
    if (template === undefined) {
      if (values !== undefined)
        throw new FieldProblems([
          { field: 'values', code: 'template_required', message: 'values need a template.' },
        ]);
      return page;
    }
    const row = await this.templates.find(template);
    if (!row)
      throw new FieldProblems([
        { field: 'template', code: 'unknown_template', message: 'No template of that name.' },
      ]);
    const problems = valueProblems(row.fields, values ?? {});
    if (page.content !== undefined)
      problems.push({
        field: 'content',
        code: 'template_and_content',
        message: 'Send either a template or content.',
      });
    if (problems.length > 0) throw new FieldProblems(problems);
    const filled = fill(row.content, {
      ...(values as Record<string, string>),
      date: new Date().toISOString().slice(0, 10),
      author: user.username,
      title: typeof page.title === 'string' ? page.title : '',
    });
    return {
      ...page,
      content: filled,
      tags: page.tags ?? row.tags,
      groups: page.groups ?? row.groups,
      owner: page.owner !== undefined ? page.owner : (row.owner ?? undefined),
      reviewIntervalDays: page.reviewIntervalDays ?? row.reviewIntervalDays,
      lifecycle: page.lifecycle ?? (row.lifecycle as CreatePageDto['lifecycle']) ?? undefined,
    };
  }

  private validated(name: string, body: PageTemplateBodyDto, withName: boolean): PageTemplateRow {
    const problems: FieldProblem[] = [];
    const at = (field: string, code: string, message: string) =>
      problems.push({ field, code, message });
    if (!NAME.test(name))
      at(
        withName ? 'name' : 'name',
        'invalid_name',
        'name: 1-100 lowercase letters, digits and "-".',
      );
    if (body.title.trim() === '' || body.title.length > 255)
      at('title', 'invalid_title', 'title: 1-255 characters.');
    if ((body.description ?? '').length > 1000)
      at('description', 'too_long', 'description: at most 1,000 characters.');
    if (body.content.length > MAX_CONTENT)
      at('content', 'too_long', `content: at most ${MAX_CONTENT} characters.`);
    const fields = body.fields ?? [];
    const seen = new Set<string>();
    fields.forEach((f, i) => {
      if (!FIELD_NAME.test(f.name) || BUILT_IN.has(f.name) || seen.has(f.name))
        at(
          `fields.${i}.name`,
          'invalid_field',
          'A field name is a letter or _ then letters, digits or _, once each; not date, author or title.',
        );
      seen.add(f.name);
    });
    if (
      body.reviewIntervalDays != null &&
      (body.reviewIntervalDays < 1 || body.reviewIntervalDays > 3650)
    )
      at('reviewIntervalDays', 'out_of_range', 'reviewIntervalDays: 1-3650.');
    if (problems.length > 0) throw new FieldProblems(problems);
    return {
      name,
      title: body.title.trim(),
      description: body.description ?? '',
      content: body.content,
      fields: fields.map((f) => ({ name: f.name, label: f.label })),
      tags: body.tags ?? [],
      groups: body.groups ?? [],
      owner: body.owner ?? null,
      reviewIntervalDays: body.reviewIntervalDays ?? null,
      lifecycle: body.lifecycle ?? null,
      updatedAt: new Date(),
    };
  }
}

function valueProblems(fields: TemplateField[], values: Record<string, unknown>): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const names = new Set(fields.map((f) => f.name));
  for (const [name, value] of Object.entries(values)) {
    if (!names.has(name))
      problems.push({
        field: `values.${name}`,
        code: 'unknown_field',
        message: 'The template asks for no such field.',
      });
    else if (typeof value !== 'string' || value.length > MAX_VALUE)
      problems.push({
        field: `values.${name}`,
        code: 'invalid_value',
        message: `A value is a string of at most ${MAX_VALUE} characters.`,
      });
  }
  for (const field of fields)
    if (!Object.prototype.hasOwnProperty.call(values, field.name))
      problems.push({
        field: `values.${field.name}`,
        code: 'missing_value',
        message: `${field.label} is required by the template.`,
      });
  return problems;
}
