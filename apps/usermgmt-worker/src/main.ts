import { runService } from '@platform/runtime';
import { config } from './config.js';

await runService({ name: 'usermgmt-worker', config, load: () => import('./service.js') });
