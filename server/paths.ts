// Where the files the server reads at run time are: its data (server/data/), the face detector's thread
// (server/workers/), the texts (locales/), the app's style sheets and login font its own pages use (src/), and
// the built app (dist/). Every such path starts from the project's root, found here once: this module is in
// server/ when run from source, and in the bundle in dist-server/ once built (scripts/buildServer.mjs), both
// one folder below the root. A bundle has one __dirname for all its modules, so no other module uses it.
import path from 'node:path';

const projectRoot = path.resolve(__dirname, '..');

/** A path under the project's root, given as it is written from there (`'server/data/sms-countries.json'`). */
export const atRoot = (relative: string) => path.join(projectRoot, relative);
