import { runService } from '@platform/runtime';
import { config } from './config.js';

await runService({ name: 'image-worker', config, load: () => import('./service.js') });
