// The web app is a static placeholder until the React app lands: copy public/ to dist/.
import { cpSync, rmSync } from 'node:fs';

const here = new URL('.', import.meta.url);
rmSync(new URL('dist', here), { recursive: true, force: true });
cpSync(new URL('public', here), new URL('dist', here), { recursive: true });
