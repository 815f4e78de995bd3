import type { QueryRunner } from 'typeorm';

/** A starter template as the migration stores it (administrators may edit or remove it). */
interface StarterTemplate {
  name: string;
  title: string;
  description: string;
  content: string;
  fields: { name: string; label: string }[];
  tags: string[];
  reviewIntervalDays: number | null;
  lifecycle: string | null;
}

/** The starter set: meeting notes, runbook, decision record, how-to (issue 33). */
export const STARTER_TEMPLATES: StarterTemplate[] = [
  {
    name: 'meeting-notes',
    title: 'Meeting notes',
    description: 'Attendees, agenda, decisions and action items of one meeting.',
    content:
      '# {{title}}\n\nDate: {{date}} · Notes by: {{author}}\n\n## Attendees\n\n- \n\n' +
      '## Agenda\n\n1. \n\n## Decisions\n\n- \n\n## Action items\n\n- [ ] \n',
    fields: [],
    tags: ['meeting'],
    reviewIntervalDays: null,
    lifecycle: null,
  },
  {
    name: 'runbook',
    title: 'Runbook',
    description: 'How to operate a service: checks, procedure, rollback, escalation.',
    content:
      '# {{title}}\n\nService: **{{service}}** · Owner: {{author}} · Last reviewed: {{date}}\n\n' +
      '[[toc]]\n\n## When to use this runbook\n\n## Before you start\n\n> [!WARNING]\n> \n\n' +
      '## Procedure\n\n1. \n\n## Rollback\n\n1. \n\n## Escalation\n\n',
    fields: [{ name: 'service', label: 'Service' }],
    tags: ['runbook'],
    reviewIntervalDays: 90,
    lifecycle: null,
  },
  {
    name: 'decision-record',
    title: 'Decision record',
    description: 'One architecture decision: context, options, decision, consequences.',
    content:
      '# {{title}}\n\nStatus: proposed · Date: {{date}} · Deciders: {{author}}\n\n' +
      '## Context\n\n## Options considered\n\n1. \n\n## Decision\n\n## Consequences\n\n',
    fields: [],
    tags: ['decision'],
    reviewIntervalDays: null,
    lifecycle: 'draft',
  },
  {
    name: 'how-to',
    title: 'How-to guide',
    description: 'Steps that get a reader to one goal.',
    content:
      '# {{title}}\n\nThis guide shows how to {{goal}}.\n\n## Before you begin\n\n- \n\n' +
      '## Steps\n\n1. \n\n## Check the result\n\n## Related\n\n',
    fields: [{ name: 'goal', label: 'Goal (what the reader will achieve)' }],
    tags: ['how-to'],
    reviewIntervalDays: 180,
    lifecycle: null,
  },
];

/** Stores the starter set (also used by the tests, which empty every table between tests). */
export async function insertStarterTemplates(queryRunner: QueryRunner): Promise<void> {
  const now = new Date().toISOString().replace('T', ' ').replace('Z', '');
  for (const t of STARTER_TEMPLATES)
    await queryRunner.query(
      'INSERT INTO page_templates (name, title, description, content, fields, tags, group_names, ' +
        'owner_username, review_interval_days, lifecycle, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
      [
        t.name,
        t.title,
        t.description,
        t.content,
        JSON.stringify(t.fields),
        JSON.stringify(t.tags),
        '[]',
        null,
        t.reviewIntervalDays,
        t.lifecycle,
        now,
      ],
    );
}
