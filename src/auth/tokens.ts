export { createApiToken, type CreateTokenInput } from './service.js';
