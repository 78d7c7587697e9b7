/** `npm run build`: bundle the web console's browser assets into dist/console/ (assets.ts). */
import { buildConsole, CONSOLE_ASSETS_DIR } from './assets';

buildConsole().then(
  () => console.log(`Web console bundled into ${CONSOLE_ASSETS_DIR}`),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
