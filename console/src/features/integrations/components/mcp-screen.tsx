import { useState, type FormEvent } from 'react';
import { ProblemMessage } from '../../../components/problem-message';
import { Spinner } from '../../../components/spinner';
import { useDocumentTitle } from '../../../components/use-document-title';
import { useMcpSettings, useSaveMcpSettings, type McpSettings } from '../api/mcp-settings';

/** What each tool does, as the administrator chooses. */
const TOOL_LABELS: Record<string, string> = {
  search_pages: 'Search pages',
  read_page: 'Read a page',
  list_recent: 'List recent pages',
  list_tree: 'Browse the tree',
  list_backlinks: 'List backlinks',
  create_page: 'Create a page',
  update_page: 'Update a page',
  move_page: 'Move a page',
  add_comment: 'Comment on a page',
  propose_change: 'Propose a change request',
};

type Tool = McpSettings['tools'][number];

function McpForm({ initial }: { initial: McpSettings }) {
  const save = useSaveMcpSettings();
  const [enabled, setEnabled] = useState(initial.enabled);
  const [tools, setTools] = useState<Tool[]>(initial.tools);
  const [saved, setSaved] = useState(false);
  const toggle = (tool: Tool, on: boolean) => {
    setSaved(false);
    setTools((all) =>
      on
        ? initial.available.filter((t) => t === tool || all.includes(t))
        : all.filter((t) => t !== tool),
    );
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate({ enabled, tools }, { onSuccess: () => setSaved(true) });
  };
  return (
    <form onSubmit={submit}>
      {!initial.configured && (
        <p className="notice">
          MCP_ENABLED=false: the server is not mounted on this instance, whatever is chosen here.
        </p>
      )}
      <label className="check">
        <input
          type="checkbox"
          checked={enabled}
          onChange={(e) => {
            setSaved(false);
            setEnabled(e.target.checked);
          }}
        />
        MCP server on
      </label>
      <fieldset className="rows admin__mcp-tools" disabled={!enabled}>
        <legend className="section-title">Tools offered</legend>
        <div className="checks checks--column">
          {initial.available.map((tool) => (
            <label key={tool} className="check">
              <input
                type="checkbox"
                checked={tools.includes(tool)}
                onChange={(e) => toggle(tool, e.target.checked)}
              />
              <span>
                {TOOL_LABELS[tool] ?? tool} <code>{tool}</code>
              </span>
            </label>
          ))}
        </div>
      </fieldset>
      <div className="admin__buttons">
        <button type="submit" className="button button--primary" disabled={save.isPending}>
          Save MCP settings
        </button>
        <span role="status" className="admin__status">
          {saved ? 'Saved.' : ''}
        </span>
      </div>
      <ProblemMessage error={save.error} title="Not saved." />
    </form>
  );
}

/** The administrators' switch for the MCP server at /mcp and the tools it offers. */
export function McpScreen() {
  useDocumentTitle('AI assistants (MCP)');
  const settings = useMcpSettings();
  return (
    <section className="screen screen--narrow" aria-labelledby="mcp-title">
      <h1 id="mcp-title" className="screen__title">
        AI assistants (MCP)
      </h1>
      <p className="screen__lead">
        kb’s Model Context Protocol server at <code>/mcp</code> lets AI assistants search, read and
        change pages as the person who connects them. Turn it off, or choose the tools it offers.
      </p>
      <ProblemMessage error={settings.error} />
      {settings.isPending ? <Spinner /> : settings.data && <McpForm initial={settings.data} />}
    </section>
  );
}

export default McpScreen;
