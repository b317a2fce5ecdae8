import { runService } from '@platform/runtime';
import { config } from './config.js';

await runService({ name: 'oauth-worker', config, load: () => import('./service.js') });
