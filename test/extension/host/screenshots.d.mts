export declare const SCREENSHOTS: string[];
