/**
 * `npx tsx bench/summarize-profile.ts <file.cpuprofile> [top]`: prints where a profile's time went
 * (see bench/support/cpu-profile.ts), e.g. for the profiles `npm run bench -- http --profile` writes.
 */
import { formatProfileSummary, summarizeProfile } from './support/cpu-profile';

const [file, top] = process.argv.slice(2);
if (!file) {
  process.stderr.write('usage: npx tsx bench/summarize-profile.ts <file.cpuprofile> [top]\n');
  process.exit(2);
}
process.stdout.write(formatProfileSummary(summarizeProfile(file, top ? Number(top) : 25)) + '\n');
