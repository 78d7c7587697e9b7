/**
 * The console's pages, one entry each: the navigation and the router read this list, so a page from
 * another part of the platform (the agent inbox, the workflows viewer) plugs in by adding an entry
 * and its component file, nothing else.
 */
import type { ComponentType } from 'preact';
import { ModulesPage } from './admin/modules-page';
import { RingsPage } from './admin/rings-page';
import { RegistryPage } from './admin/registry-page';
import { TenantsPage } from './admin/tenants-page';
import { MembersPage } from './admin/members-page';

export interface Me {
  id: number;
  name: string;
  email: string;
  is_super_admin: boolean;
  tenant: { id: string; name: string; ring: string };
  role: string | null;
  permissions: string[];
}

export interface ConsolePage {
  path: string;
  label: string;
  icon: string;
  component: ComponentType<{ me: Me; sub: string }>;
  /** Shown to this user (the API refuses the rest anyway; hiding avoids a page of 403s). */
  visible(me: Me): boolean;
}

const can = (me: Me, permission: string) => me.is_super_admin || me.permissions.includes('*') || me.permissions.includes(permission);

export const PAGES: ConsolePage[] = [
  { path: '/admin/modules', label: 'Modules', icon: 'package', component: ModulesPage, visible: (me) => can(me, 'modules.manage') },
  { path: '/admin/members', label: 'Members', icon: 'users', component: MembersPage, visible: (me) => can(me, 'members.manage') },
  { path: '/admin/rings', label: 'Rings', icon: 'trending-up', component: RingsPage, visible: (me) => me.is_super_admin },
  { path: '/admin/registry', label: 'Registry', icon: 'shield', component: RegistryPage, visible: (me) => me.is_super_admin },
  { path: '/admin/tenants', label: 'Tenants', icon: 'settings', component: TenantsPage, visible: (me) => me.is_super_admin },
];
