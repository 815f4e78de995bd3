import type { CollabSession } from './use-collab';

/** Who is editing with you, whether the connection holds, and what kb last said. */
export function CollabPresence({ collab }: { collab: CollabSession }) {
  return (
    <div className="collab-bar">
      <section aria-label="Editing now" className="collab-bar__people">
        <span className="collab-bar__label">Editing now:</span>
        <ul>
          {collab.names.map((name) => (
            <li key={name}>{name}</li>
          ))}
        </ul>
      </section>
      {!collab.online && !collab.ended && (
        <p className="collab-bar__offline" role="status">
          Offline — your changes will sync
        </p>
      )}
      {collab.notice && (
        <p className="collab-bar__notice" role="status">
          {collab.notice}
        </p>
      )}
    </div>
  );
}
