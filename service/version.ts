import pkg from '../package.json' with { type: 'json' };

/** The service's version (package.json); the API's version is API_VERSION. */
export const VERSION: string = pkg.version;
