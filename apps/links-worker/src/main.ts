import { runService } from '@platform/runtime';
import { config } from './config.js';

await runService({ name: 'links-worker', config, load: () => import('./service.js') });
