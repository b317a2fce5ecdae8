import { runService } from '@platform/runtime';
import { config } from './config.js';

await runService({ name: 'usermgmt-gateway', config, load: () => import('./service.js') });
