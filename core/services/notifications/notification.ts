/**
 * The Notification resource of spec 1 as it crosses the wire (REST, the `.notification.created`
 * broadcast, push payloads), and the row it is read from.
 */
import type { SEVERITIES } from '../../../sdk/contracts/platform';

export type Severity = (typeof SEVERITIES)[number];

export interface Notification {
  id: string;
  user_id: number;
  type: string;
  module: string | null;
  title: string;
  body: string | null;
  icon: string | null;
  severity: Severity;
  action_url: string | null;
  action_label: string | null;
  data: unknown;
  group_key: string | null;
  read_at: string | null;
  created_at: string;
  updated_at: string;
}

/** What a sender supplies for each recipient; everything but type and title is optional. */
export interface NotificationContent {
  type: string;
  title: string;
  body?: string | null;
  module?: string | null;
  icon?: string | null;
  severity?: Severity;
  action_url?: string | null;
  action_label?: string | null;
  data?: unknown;
  group_key?: string | null;
}

export interface NotificationRow {
  id: string;
  user_id: string | number;
  type: string;
  module: string | null;
  title: string;
  body: string | null;
  icon: string | null;
  severity: string;
  action_url: string | null;
  action_label: string | null;
  data: unknown;
  group_key: string | null;
  read_at: Date | string | null;
  created_at: Date | string;
  updated_at: Date | string;
}

const iso = (v: Date | string) => (v instanceof Date ? v : new Date(v)).toISOString();

export function toNotification(row: NotificationRow): Notification {
  return {
    id: row.id,
    user_id: Number(row.user_id),
    type: row.type,
    module: row.module,
    title: row.title,
    body: row.body,
    icon: row.icon,
    severity: row.severity as Severity,
    action_url: row.action_url,
    action_label: row.action_label,
    data: row.data ?? null,
    group_key: row.group_key,
    read_at: row.read_at === null ? null : iso(row.read_at),
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}
