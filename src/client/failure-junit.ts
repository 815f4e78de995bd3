/** XML text and attribute escaping. */
function xml(value: string): string {
  return (
    value
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;')
      // XML 1.0 has no control characters but tab, line feed and carriage return.
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '')
  );
}

export interface FailedImportProblem {
  title?: string;
  code?: string;
  detail?: string;
  errors?: { field: string; code: string; message: string }[];
}

/**
 * JUnit XML for an import that failed as a whole (a strict import refused for invalid files,
 * or a job that failed): kb keeps no report for it, so the CLI writes one from the problem —
 * one failed test case per file the problem names (`files[docs/a.md]`), or one for the import.
 */
export function failedImportJunit(problem: FailedImportProblem | null, state: string): string {
  const cases = (problem?.errors ?? []).map((error) => {
    const file = /^files\[(.*)\]$/.exec(error.field)?.[1] ?? error.field;
    return { name: file, type: error.code, message: error.message };
  });
  if (cases.length === 0)
    cases.push({
      name: 'import',
      type: problem?.code ?? state,
      message: problem?.detail ?? `The import ${state}.`,
    });
  const body = cases
    .map(
      (c) =>
        `    <testcase classname="kb.import" name="${xml(c.name)}">\n` +
        `      <failure type="${xml(c.type)}" message="${xml(c.message)}">${xml(c.message)}</failure>\n` +
        '    </testcase>',
    )
    .join('\n');
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    `<testsuites name="kb import" tests="${cases.length}" failures="${cases.length}" errors="0" skipped="0">\n` +
    `  <testsuite name="kb import" tests="${cases.length}" failures="${cases.length}" errors="0" skipped="0">\n` +
    `${body}\n  </testsuite>\n</testsuites>\n`
  );
}
