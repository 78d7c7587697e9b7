/**
 * The four suspicious-login rules of spec 1 (Login history record), applied to a successful
 * password check (status success or 2fa_required) before its row is written:
 *  - new_device: the user has signed in here before, never with this device type, browser and platform;
 *  - new_location: more than 500 km from the last sign-in whose address had a location (offline GeoIP);
 *  - failures_before_success: 3 or more failed attempts (password or second factor) in the last 15 minutes;
 *  - unusual_hour: at least 5 earlier sign-ins in 90 days, none within 2 hours of this time of day (UTC).
 * The first sign-in ever has no baseline and is never flagged by the device, location or hour rules.
 */
import { QueryTypes, type Sequelize } from 'sequelize';
import { distanceKm, type GeoPoint } from './geo';
import type { ParsedAgent } from './user-agent';

export const FAR_KM = 500;
const FAILURE_WINDOW_MS = 15 * 60_000;
const FAILURES_BEFORE_SUCCESS = 3;
const HOUR_BASELINE = 5;
const HOUR_BASELINE_MS = 90 * 24 * 3600_000;
const HOUR_TOLERANCE_MIN = 120;

interface PriorLogin {
  device_type: string;
  browser: string;
  platform: string;
  latitude: number | null;
  longitude: number | null;
  created_at: Date;
}

export async function suspiciousReasons(
  db: Sequelize,
  a: { userId: number; now: Date; agent: ParsedAgent; geo: GeoPoint | null },
): Promise<string[]> {
  const priors = await db.query<PriorLogin>(
    `SELECT device_type, browser, platform, latitude, longitude, created_at FROM login_history
      WHERE user_id = $1 AND status = 'success' AND created_at <= $2 ORDER BY created_at DESC LIMIT 200`,
    { bind: [a.userId, a.now], type: QueryTypes.SELECT },
  );
  const [{ n: recentFailures }] = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM login_history
      WHERE user_id = $1 AND status IN ('failed', '2fa_failed') AND created_at > $2 AND created_at <= $3`,
    { bind: [a.userId, new Date(a.now.getTime() - FAILURE_WINDOW_MS), a.now], type: QueryTypes.SELECT },
  );
  const reasons: string[] = [];
  if (priors.length && !priors.some((p) => p.device_type === a.agent.device_type && p.browser === a.agent.browser && p.platform === a.agent.platform)) {
    reasons.push('new_device');
  }
  const lastPlaced = priors.find((p) => p.latitude !== null && p.longitude !== null);
  if (a.geo && lastPlaced && distanceKm(a.geo, { latitude: lastPlaced.latitude!, longitude: lastPlaced.longitude! }) > FAR_KM) {
    reasons.push('new_location');
  }
  if (recentFailures >= FAILURES_BEFORE_SUCCESS) reasons.push('failures_before_success');
  const baseline = priors.filter((p) => a.now.getTime() - new Date(p.created_at).getTime() <= HOUR_BASELINE_MS);
  if (baseline.length >= HOUR_BASELINE && !baseline.some((p) => minutesApart(new Date(p.created_at), a.now) <= HOUR_TOLERANCE_MIN)) {
    reasons.push('unusual_hour');
  }
  return reasons;
}

/** Distance between two times of day in minutes, across midnight (23:30 and 00:30 are 60 apart). */
function minutesApart(x: Date, y: Date): number {
  const m = (d: Date) => d.getUTCHours() * 60 + d.getUTCMinutes();
  const diff = Math.abs(m(x) - m(y));
  return Math.min(diff, 1440 - diff);
}
