/** `npm run build`: bundle the playground's browser assets into dist/playground/ (assets.ts). */
import { buildPlayground, PLAYGROUND_ASSETS_DIR } from './assets';

buildPlayground().then(
  () => console.log(`GraphQL playground bundled into ${PLAYGROUND_ASSETS_DIR}`),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
