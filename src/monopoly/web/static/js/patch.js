// JSON Patch (RFC 6902) for the server's `delta` messages (docs/protocol.md): apply the
// operations to a copy. The original stays as it was — the screen compares the previous
// state with the new one — and only the objects and lists on a changed path are copied.

/** The JSON Pointer (RFC 6901) `path` as its keys. */
function keys(path) {
  if (path === "") return [];
  if (!path.startsWith("/")) throw new Error(`bad JSON Pointer ${path}`);
  return path.slice(1).split("/").map((key) => key.replaceAll("~1", "/").replaceAll("~0", "~"));
}

/** `doc` with the patch `ops` applied (add, remove, replace). */
export function applyPatch(doc, ops) {
  const copies = new Set();
  const own = (node) => {
    if (copies.has(node)) return node;
    const copy = Array.isArray(node) ? node.slice() : { ...node };
    copies.add(copy);
    return copy;
  };
  let root = doc;
  for (const op of ops) {
    const path = keys(op.path);
    if (!path.length) {
      if (op.op !== "replace" && op.op !== "add") throw new Error(`cannot ${op.op} the whole document`);
      root = op.value;
      continue;
    }
    root = own(root);
    let parent = root;
    for (const key of path.slice(0, -1)) {
      if (parent[key] === null || typeof parent[key] !== "object") throw new Error(`no ${op.path}`);
      parent[key] = own(parent[key]);
      parent = parent[key];
    }
    const last = path[path.length - 1];
    if (op.op === "remove") {
      if (Array.isArray(parent)) parent.splice(Number(last), 1);
      else delete parent[last];
    } else if (op.op === "replace" || op.op === "add") {
      if (Array.isArray(parent) && op.op === "add") parent.splice(last === "-" ? parent.length : Number(last), 0, op.value);
      else parent[Array.isArray(parent) ? Number(last) : last] = op.value;
    } else {
      throw new Error(`unknown patch operation ${op.op}`);
    }
  }
  return root;
}
