import { NavLink, Outlet } from 'react-router';
import { useCurrentUser } from '../../api/me';
import { useDocumentTitle } from '../../components/use-document-title';
import './admin.css';
import { paths } from '../../lib/routes';

const SECTIONS: [path: string, label: string][] = [
  ['import', 'Import'],
  ['export', 'Export'],
  ['bin', 'Bin'],
  ['users', 'Users'],
  ['groups', 'Groups'],
  ['variables', 'Variables'],
  ['graph', 'Graph'],
  ['review', 'Review due'],
  ['mcp', 'MCP'],
  ['apps', 'Apps'],
];

function NotForYou() {
  useDocumentTitle('Administration');
  return (
    <div className="screen screen--narrow">
      <h1 className="screen__title">Administration</h1>
      <p className="screen__lead">This part of kb is for administrators.</p>
    </div>
  );
}

/**
 * The administrator's workspace: its navigation and the current screen. Readers and editors
 * see only a sentence (the API would refuse them anyway).
 */
export function AdminLayout() {
  const user = useCurrentUser();
  if (user.role !== 'admin') return <NotForYou />;
  return (
    <div className="admin">
      <nav className="admin__nav" aria-label="Administration">
        <ul className="admin__tabs">
          {SECTIONS.map(([path, label]) => (
            <li key={path}>
              <NavLink to={paths.admin(path)} className="admin__tab">
                {label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <Outlet />
    </div>
  );
}

export default AdminLayout;
