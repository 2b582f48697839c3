// Small fetch wrapper: JSON in, JSON out, errors as ApiError with the server's code.
// A 429 (every engine busy) is retried on its own after Retry-After, with a note shown.

export class ApiError extends Error {
  constructor(status, code, detail) {
    super(detail || code);
    this.status = status;
    this.code = code;
  }
}

const MAX_BUSY_RETRIES = 30;
let busyListener = () => {};

// Called with the seconds until the next try while the server is busy, and null after.
export function onBusy(listener) {
  busyListener = listener;
}

const sleep = (ms) => new Promise((resolve) => { setTimeout(resolve, ms); });

export async function api(path, { method = "GET", body, token } = {}) {
  const options = { method, headers: {} };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  if (token) options.headers.Authorization = `Bearer ${token}`;
  let response;
  for (let attempt = 0; ; attempt++) {
    try {
      response = await fetch(`/api${path}`, options);
    } catch {
      busyListener(null);
      throw new ApiError(0, "offline", "The server cannot be reached.");
    }
    if (response.status !== 429 || attempt >= MAX_BUSY_RETRIES) break;
    const seconds = Math.min(30, Math.max(1, Number(response.headers.get("Retry-After")) || 2));
    busyListener(seconds);
    await sleep(seconds * 1000);
  }
  busyListener(null);
  if (response.status === 204) return null;
  const data = await response.json().catch(() => null);
  if (!response.ok) {
    throw new ApiError(response.status, data?.error ?? "error", data?.detail ?? response.statusText);
  }
  return data;
}

export const get = (path) => api(path);
export const post = (path, body, token) => api(path, { method: "POST", body, token });
