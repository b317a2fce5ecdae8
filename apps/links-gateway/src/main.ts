import { runService } from '@platform/runtime';
import { config } from './config.js';

await runService({ name: 'links-gateway', config, load: () => import('./service.js') });
