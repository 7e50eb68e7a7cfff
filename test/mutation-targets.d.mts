export declare const TARGETS: Record<string, string[]>;
export declare const MUTATION_TESTS: string[];
