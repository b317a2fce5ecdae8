import { runService } from '@platform/runtime';
import { config } from './config.js';

await runService({ name: 'scheduling-worker', config, load: () => import('./service.js') });
