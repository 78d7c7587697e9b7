/**
 * The console's pages, one entry each: the navigation and the router read this list, so a page from
 * another part of the platform (the agent inbox, the workflows viewer, the AI runs) plugs in by adding an entry
 * and its component file, nothing else.
 */
import type { ComponentType } from 'preact';
import { AiRunsPage } from './ai/ai-runs-page';
import { AI_RUNS_PATH } from './ai/run-types';
import { ModulesPage } from './admin/modules-page';
import { RingsPage } from './admin/rings-page';
import { RegistryPage } from './admin/registry-page';
import { TenantsPage } from './admin/tenants-page';
import { MembersPage } from './admin/members-page';
import { INBOX_PATH } from './live-chat/chat';
import { InboxPage } from './live-chat/inbox-page';
import { can, type Me } from './me';
import { WORKFLOWS_PATH } from './workflows/workflow-types';
import { WorkflowsPage } from './workflows/workflows-page';

export type { Me } from './me';

export interface ConsolePage {
  path: string;
  label: string;
  icon: string;
  component: ComponentType<{ me: Me; sub: string }>;
  /** Shown to this user (the API refuses the rest anyway; hiding avoids a page of 403s). */
  visible(me: Me): boolean;
}

/** A module's page: shown where the tenant installed the module and the user holds the permission. */
const withModule = (alias: string, permission: string) => (me: Me) => me.modules.includes(alias) && can(me, permission);

export const PAGES: ConsolePage[] = [
  { path: INBOX_PATH, label: 'Agent inbox', icon: 'message-square', component: InboxPage, visible: withModule('live_chat', 'live_chat.view') },
  { path: WORKFLOWS_PATH, label: 'Workflow viewer', icon: 'zap', component: WorkflowsPage, visible: withModule('workflows', 'workflows.view') },
  { path: AI_RUNS_PATH, label: 'AI runs', icon: 'shield', component: AiRunsPage, visible: withModule('ai', 'ai.view') },
  { path: '/admin/modules', label: 'Modules', icon: 'package', component: ModulesPage, visible: (me) => can(me, 'modules.manage') },
  { path: '/admin/members', label: 'Members', icon: 'users', component: MembersPage, visible: (me) => can(me, 'members.manage') },
  { path: '/admin/rings', label: 'Rings', icon: 'trending-up', component: RingsPage, visible: (me) => me.is_super_admin },
  { path: '/admin/registry', label: 'Registry', icon: 'shield', component: RegistryPage, visible: (me) => me.is_super_admin },
  { path: '/admin/tenants', label: 'Tenants', icon: 'settings', component: TenantsPage, visible: (me) => me.is_super_admin },
];
