/**
 * The V8 CPU profiler of this process, through the inspector: started for a measured window only
 * (not the set-up), written as a .cpuprofile (Chrome DevTools opens it; cpu-profile.ts ranks it).
 */
import fs from 'node:fs';
import { Session } from 'node:inspector/promises';

/** intervalMicros: shorter samples rank cheaper functions, longer ones cost less in long runs. */
export async function startProfile(intervalMicros: number): Promise<Session> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: intervalMicros });
  await session.post('Profiler.start');
  return session;
}

export async function stopProfile(session: Session, file: string): Promise<void> {
  const { profile } = await session.post('Profiler.stop');
  session.disconnect();
  fs.writeFileSync(file, JSON.stringify(profile));
}
