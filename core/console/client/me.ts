/** The signed-in user as GET /auth/me describes them, and what the console asks of it. */
export interface Me {
  id: number;
  name: string;
  email: string;
  is_super_admin: boolean;
  tenant: { id: string; name: string; ring: string };
  role: string | null;
  permissions: string[];
  /** Aliases of the modules the tenant installed. */
  modules: string[];
}

/** The user holds the permission (the API refuses the rest anyway; hiding avoids a page of 403s). */
export const can = (me: Me, permission: string) => me.is_super_admin || me.permissions.includes('*') || me.permissions.includes(permission);
