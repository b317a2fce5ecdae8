import { runService } from '@platform/runtime';
import { config } from './config.js';

await runService({ name: 'notifications-gateway', config, load: () => import('./service.js') });
