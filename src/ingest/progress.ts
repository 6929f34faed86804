/** The progress lines build-db prints on stderr: durations and row counts. */
export const seconds = (since: number) => `${((performance.now() - since) / 1000).toFixed(1)}s`;
export const formatCount = (count: number) => count.toLocaleString('en-US');
