/**
 * A User-Agent header as the login history stores it: device_type (desktop, mobile, tablet or
 * unknown), browser and platform names. The only place that knows the parser, so swapping it is
 * a one-file change.
 */
import { UAParser } from 'ua-parser-js';

export interface ParsedAgent {
  device_type: 'desktop' | 'mobile' | 'tablet' | 'unknown';
  browser: string;
  platform: string;
}

const DESKTOP_OS = new Set(['Windows', 'macOS', 'Mac OS', 'Linux', 'Ubuntu', 'Debian', 'Fedora', 'Chrome OS', 'Chromium OS', 'FreeBSD', 'OpenBSD']);

export function parseUserAgent(ua: string | undefined): ParsedAgent {
  const r = UAParser(ua ?? '');
  const browser = r.browser.name ?? 'Unknown';
  const platform = r.os.name ?? 'Unknown';
  const type = r.device.type;
  // The parser names only non-desktop form factors; a desktop OS with no form factor is a desktop.
  const device_type = type === 'mobile' || type === 'tablet' ? type : !type && DESKTOP_OS.has(platform) ? 'desktop' : 'unknown';
  return { device_type, browser, platform };
}
