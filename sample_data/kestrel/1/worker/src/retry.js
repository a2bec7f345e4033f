// Retry with exponential backoff for calls to the upstream archive.

const MAX_ATTEMPTS = 5;
const BASE_DELAY_MS = 400;
const MAX_DELAY_MS = 30000;

export class SyncError extends Error {}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export function backoff(attempt) {
  return Math.min(BASE_DELAY_MS * 2 ** attempt, MAX_DELAY_MS);
}

export async function withRetry(fn, { attempts = MAX_ATTEMPTS, isRetryable = () => true } = {}) {
  let lastError;
  for (let attempt = 0; attempt < attempts; attempt++) {
    try {
      return await fn(attempt);
    } catch (err) {
      lastError = err;
      if (!isRetryable(err)) break;
      await sleep(backoff(attempt));
    }
  }
  throw new SyncError("upstream call failed after retries", { cause: lastError });
}
