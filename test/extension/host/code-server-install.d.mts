export const CODE_SERVER_VERSION: string;
export function cacheDir(): string;
export function installPaths(dir?: string): { dir: string; entry: string; playwright: string; marker: string };
export function isInstalled(dir?: string): boolean;
export function installCodeServer(options?: {
  dir?: string;
  log?: (line: string) => void;
}): ReturnType<typeof installPaths>;
