// The HTTP side of docs/protocol.md: lobby requests that answer JSON.

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

async function request(method, path, body) {
  const options = { method, headers: {} };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, options);
  } catch (error) {
    throw new ApiError(0, "network", String(error));
  }
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    const error = data.error || {};
    throw new ApiError(response.status, error.code || "http", error.message || response.statusText);
  }
  return data;
}

const editionCache = new Map();

export const api = {
  editions: () => request("GET", "/api/editions"),
  /** An edition's board and words in ``language`` (cached: they never change). */
  edition(key, language) {
    const id = `${key}/${language}`;
    if (!editionCache.has(id)) {
      const loading = request("GET", `/api/editions/${encodeURIComponent(key)}?language=${language}`);
      loading.catch(() => editionCache.delete(id));
      editionCache.set(id, loading);
    }
    return editionCache.get(id);
  },
  options: (language) => request("GET", `/api/options?language=${language}`),
  openGames: () => request("GET", "/api/games"),
  game: (id) => request("GET", `/api/games/${encodeURIComponent(id)}`),
  create: (body) => request("POST", "/api/games", body),
  join: (id, name, token) => request("POST", `/api/games/${encodeURIComponent(id)}/join`, { name, token }),
  start: (id, seatToken) => request("POST", `/api/games/${encodeURIComponent(id)}/start`, { seat_token: seatToken }),
};
