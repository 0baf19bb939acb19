// The service as a library: what the VS Code extension, the desktop app and the tests embed.
export { createService, defaultDataDir, DEFAULTS, type Service, type ServiceOptions } from './service.ts';
export { DASHBOARD_TOKEN_FILE, dashboardTokenFile } from './auth/dashboard-token.ts';
export { API_VERSION, LIMITS } from './api/limits.ts';
export type * from './api/schemas.ts';
