/** The sockets' settings (core/kernel/config/settings.ts); read into `Config` by core/config.ts. */
import { int, rate, settingsGroup } from '../config/settings';

export const realtimeSettings = settingsGroup('realtime', {
  realtimeBroadcastRate: rate('REALTIME_BROADCAST_RATE', { default: '100/1' }, 'Broadcasts a module may make with `realtime.broadcast` per tenant and window (each reaches every socket on its channel); more are refused with 429. A live chat with many visitors needs more (each message is two broadcasts).'),
  realtimeRecheckSeconds: int('REALTIME_RECHECK_SECONDS', { default: 30, min: 1 }, "How often each node checks its open sockets again against their token, membership and channels: a socket whose token ran out is disconnected, one whose role lost a channel's permission leaves that channel. Revocations, logouts, password changes, suspensions, removals and role changes reach the sockets at once on every node; this catches what nobody announces."),
});
