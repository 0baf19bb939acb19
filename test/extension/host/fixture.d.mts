export const APP_JS: string;
export const CONFIG_PY: string;
export const DEBUGGER_LINE: number;
export const SECRET_LINE: number;
export function createFixtureRepository(): { work: string; remove(): void };
