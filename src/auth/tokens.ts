export { createApiToken } from './service.js';
