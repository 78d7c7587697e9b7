/**
 * The web console (served by the platform at `/`, core/console/console-routes.ts): sign-in, the
 * navigation (the tenant's entry-point screens and the admin pages of pages.ts), the screen renderer
 * at `/m/[...slug]` (spec 1, Server-driven screens), the notifications bell and the AI assistant
 * panel (spec 2, Authentication 3: for users holding ai.view where the tenant installed ai).
 */
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { AssistantPanel } from './ai/assistant-panel';
import { api } from './api';
import { Bell } from './bell';
import { DialogHost, ErrorBox } from './dialogs';
import { Icon } from './icons';
import { can } from './me';
import { ModulePage } from './module-pages/module-page';
import { pageHref, type ModulePageEntry } from './module-pages/page-rules';
import { PAGES, type Me } from './pages';
import { closeSocket } from './realtime';
import { navigate, onLinkClick, useLocation } from './router';
import { ScreenPage } from './screen/screen-page';
import { onScreensChange, screenList, type ScreenEntry } from './screens';
import { currentSession, onSessionChange, setSession, type Session } from './session';
import { SignIn } from './sign-in';
import './styles.css';

function useSession(): Session | null {
  const [session, set] = useState(currentSession());
  useEffect(() => onSessionChange(() => set(currentSession())), []);
  return session;
}

function App() {
  const session = useSession();
  return (
    <>
      <a class="skip" href="#main">Skip to content</a>
      {session ? <Shell session={session} /> : <SignIn />}
      <DialogHost />
    </>
  );
}

function Shell({ session }: { session: Session }) {
  const { path, query } = useLocation();
  const [me, setMe] = useState<Me | null>(null);
  const [screens, setScreens] = useState<ScreenEntry[]>([]);
  const [modulePages, setModulePages] = useState<ModulePageEntry[] | null>(null);
  const [error, setError] = useState<unknown>();
  const [menu, setMenu] = useState(false);
  const [assistant, setAssistant] = useState(false);
  useEffect(() => {
    api<Me>('/auth/me').then(setMe, setError);
    // The installed modules' console pages this user may open (docs/decisions/console-pages.md).
    api<{ data: ModulePageEntry[] }>('/console-pages').then((r) => setModulePages(r.data), () => setModulePages([]));
    const loadScreens = () => screenList().then((list) => setScreens(list.filter((s) => s.navigation !== false)), () => undefined);
    loadScreens();
    return onScreensChange(loadScreens);
  }, [session.token]);
  useEffect(() => setMenu(false), [path]);
  const signOut = async () => {
    await api('/auth/logout', { body: {} }).catch(() => undefined);
    closeSocket();
    setSession(null);
    navigate('/', true);
  };
  const openPlayground = async () => {
    // The playground page needs the bearer token, which a link cannot carry: fetch it and write it
    // into a same-origin window (its scripts come from /api/v1/graphql/playground/ as usual).
    const win = window.open('', '_blank');
    try {
      const res = await fetch('/api/v1/graphql/playground', { headers: { Authorization: `Bearer ${session.token}`, 'X-Tenant': session.tenant } });
      const html = await res.text();
      win?.document.open();
      win?.document.write(res.ok ? html : `<pre>${html.replace(/</g, '&lt;')}</pre>`);
      win?.document.close();
    } catch (err) {
      win?.close();
      setError(err);
    }
  };
  const pages = me ? PAGES.filter((p) => p.visible(me)) : [];
  const withAssistant = !!me && me.modules.includes('ai') && can(me, 'ai.view');
  const page = PAGES.find((p) => path === p.path || path.startsWith(`${p.path}/`));
  const modulePage = modulePages?.find((p) => path === pageHref(p) || path.startsWith(`${pageHref(p)}/`));
  let content;
  // A screen does not wait for /auth/me (only the admin pages need the caller's permissions).
  if (path === '/m' || path.startsWith('/m/')) content = <ScreenPage slug={decodeURI(path.slice(3)).replace(/\/+$/, '')} query={Object.fromEntries(query)} />;
  else if (error) content = <ErrorBox error={error} />;
  else if (!me || (path.startsWith('/p/') && !modulePages)) content = <p class="muted">Loading…</p>;
  else if (page) content = <page.component me={me} sub={path.slice(page.path.length)} />;
  else if (modulePage) content = <ModulePage key={pageHref(modulePage)} page={modulePage} me={me} sub={path.slice(pageHref(modulePage).length)} />;
  else content = <Home me={me} screens={screens} />;

  return (
    <div class="shell" onClick={onLinkClick as never}>
      <header class="top">
        <button type="button" class="ghost menu-toggle" aria-expanded={menu} aria-controls="nav" onClick={() => setMenu(!menu)}>☰<span class="sr-only"> Menu</span></button>
        <a class="brand" href="/">Mandi</a>
        <span class="tenant muted">{me?.tenant.name ?? session.tenant}</span>
        <span class="spacer" />
        {withAssistant && (
          <button type="button" class="ghost" aria-expanded={assistant} aria-controls="ai-panel" onClick={() => setAssistant(!assistant)}>AI assistant</button>
        )}
        <Bell session={session} />
        <button type="button" class="ghost" onClick={signOut}>Sign out</button>
      </header>
      <nav id="nav" class={menu ? 'nav open' : 'nav'} aria-label="Console">
        {screens.length > 0 && <h2>Screens</h2>}
        <ul>
          {screens.map((s) => {
            const href = `/m/${s.id.replace(/\./g, '/')}`;
            return <li key={s.id}><a href={href} aria-current={path === href ? 'page' : undefined}><Icon name={s.icon} /> {s.title}</a></li>;
          })}
        </ul>
        {modulePages && modulePages.length > 0 && <h2>Modules</h2>}
        <ul>
          {modulePages?.map((p) => <li key={pageHref(p)}><a href={pageHref(p)} aria-current={modulePage === p ? 'page' : undefined}><Icon name={p.icon ?? 'package'} /> {p.label}</a></li>)}
        </ul>
        {pages.length > 0 && <h2>Admin</h2>}
        <ul>
          {pages.map((p) => <li key={p.path}><a href={p.path} aria-current={page === p ? 'page' : undefined}><Icon name={p.icon} /> {p.label}</a></li>)}
          {me && can(me, 'graphql.playground.access') && (
            <li><button type="button" class="link" onClick={openPlayground}><Icon name="zap" /> GraphQL playground</button></li>
          )}
        </ul>
      </nav>
      <main id="main" class="main">{content}</main>
      {/* Mounted while closed too: the conversation outlives navigation and closing. */}
      {withAssistant && <AssistantPanel open={assistant} onClose={() => setAssistant(false)} />}
    </div>
  );
}

function Home({ me, screens }: { me: Me; screens: ScreenEntry[] }) {
  return (
    <div class="page">
      <h1>Welcome, {me.name}</h1>
      <p class="muted">Tenant {me.tenant.name} · ring {me.tenant.ring}{me.role ? ` · ${me.role}` : ''}</p>
      {screens.length === 0 ? (
        <p>No module screens yet. {can(me, 'modules.manage') ? <a href="/admin/modules">Install a module</a> : 'Ask an administrator to install a module.'}</p>
      ) : (
        <ul class="cards">{screens.map((s) => <li key={s.id}><a class="card" href={`/m/${s.id.replace(/\./g, '/')}`}><Icon name={s.icon} size={24} /> {s.title}</a></li>)}</ul>
      )}
    </div>
  );
}

render(<App />, document.getElementById('app')!);
