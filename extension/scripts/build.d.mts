/** The project's root folder (with a trailing separator). */
export const projectRoot: string;
/** Builds extension/dist; resolves with the milliseconds it took. */
export function buildExtension(): Promise<number>;
