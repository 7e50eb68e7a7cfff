export declare const REPO: string;
export declare const STAMP: string;
export declare function sourceHash(root?: string): string;
