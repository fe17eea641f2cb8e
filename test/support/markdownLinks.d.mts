// Types for markdownLinks.mjs (plain ESM so check-package.mjs runs on plain Node).
export declare function repositoryUrl(pkg: { repository: string | { url: string } }): string;
export declare function repoFileUrls(repo: string): { blob: string; raw: string };
export declare function githubSlug(heading: string): string;
export declare function anchorsOf(markdown: string): Set<string>;
export declare function linksOf(markdown: string): string[];
export declare function linkProblems(root: string, files: string[], repo: string): string[];
export declare function unpackagedReadmeLinks(readme: string, packagedFiles: string[]): string[];
