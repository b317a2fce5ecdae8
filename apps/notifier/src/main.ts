import { runService } from '@platform/runtime';
import { config } from './config.js';

await runService({ name: 'notifier', config, load: () => import('./service.js') });
