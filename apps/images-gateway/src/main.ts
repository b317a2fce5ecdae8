import { runService } from '@platform/runtime';
import { config } from './config.js';

await runService({ name: 'images-gateway', config, load: () => import('./service.js') });
