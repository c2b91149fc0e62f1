#!/usr/bin/env node
// The development launcher (`npm start`, `node scripts/ofkit.js <command>` in a clone): the TypeScript
// CLI through tsx, no build needed. The installed package's `ofkit` bin is the compiled
// dist/scripts/cli/main.js (`npm run build`), which needs no tsx.
import { register } from 'tsx/esm/api';

register();
await import('./cli/main.ts');
