import { runService } from '@platform/runtime';
import { config } from './config.js';

await runService({ name: 'webhook-dispatcher', config, load: () => import('./service.js') });
