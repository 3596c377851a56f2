import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type PluginOption } from 'vite';

// The SDK is compiled from its sources so the web build never depends on packages/sdk/dist being fresh.
const sdkEntry = fileURLToPath(new URL('../../packages/sdk/src/index.ts', import.meta.url));

// The plugins are hoisted to the root, where vitest brought a newer vite whose plugin types differ from
// this app's vite 7; at run time they are plain plugin objects that vite 7 accepts.
const plugins = [react(), tailwindcss()] as unknown as PluginOption[];

export default defineConfig({
  plugins,
  resolve: { alias: { '@tessera/sdk': sdkEntry } },
  build: { outDir: 'dist', emptyOutDir: true, target: 'es2022', sourcemap: true },
  server: { proxy: { '/v1': 'http://localhost:8000' } },
});
